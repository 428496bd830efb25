// The executable's malloc policy (CMallocPolicy): large blocks are mapped on their own and go
// back to the system when freed, instead of staying in the heap after a larger one was freed.
import CMallocPolicy
import Foundation
import XCTest

final class MallocPolicyTests: XCTestCase {
  func testLargeBlock_AfterALargerOneWasFreed_StillMappedOnItsOwn() throws {
    XCTAssertEqual(rk_malloc_return_large_blocks(), 1, "mallopt accepted the threshold")
    // A block larger than all free heap space cannot be carved from a heap: glibc maps it or
    // grows a heap. Its own way, having freed a larger block (which raises the threshold to
    // that size, up to 32 MB), it would grow the heap; with the policy it maps it.
    // The tests before this one may have left much free heap space (more than the 32 MB the
    // threshold can rise to): taken up first by 64 KB blocks, which always come from a heap.
    var filler: [UnsafeMutableRawPointer] = []
    defer { for block in filler { free(block) } }
    while rk_malloc_free_heap_bytes() > 4 << 20, filler.count < 8192,
      let block = malloc(64 << 10)
    {
      filler.append(block)
    }
    let size = Int(rk_malloc_free_heap_bytes()) + (1 << 20)
    try XCTSkipIf(size + (4 << 20) >= 32 << 20, "this process's heaps hold \(size >> 20) MB free")
    let larger = try XCTUnwrap(malloc(size + (4 << 20)))
    free(larger)
    let before = rk_malloc_mapped_blocks()
    let large = try XCTUnwrap(malloc(size))
    defer { free(large) }
    XCTAssertEqual(rk_malloc_mapped_blocks(), before + 1, "the large block is mapped on its own")
    let small = try XCTUnwrap(malloc(64 << 10))
    defer { free(small) }
    XCTAssertEqual(rk_malloc_mapped_blocks(), before + 1, "a 64 KB block comes from a heap")
  }
}
