// The executable's malloc policy (CMallocPolicy): large blocks are mapped on their own and go
// back to the system when freed, instead of staying in the heap after a larger one was freed.
import CMallocPolicy
import Foundation
import XCTest

final class MallocPolicyTests: XCTestCase {
  func testLargeBlock_AfterALargerOneWasFreed_StillMappedOnItsOwn() throws {
    XCTAssertEqual(rk_malloc_return_large_blocks(), 1, "mallopt accepted the threshold")
    // glibc's own way: freeing the 4 MB block would raise the threshold to 4 MB, and the
    // 1 MB block would then come from the heap (and stay there when freed).
    let larger = try XCTUnwrap(malloc(4 << 20))
    free(larger)
    let before = rk_malloc_mapped_blocks()
    let large = try XCTUnwrap(malloc(1 << 20))
    defer { free(large) }
    XCTAssertEqual(rk_malloc_mapped_blocks(), before + 1, "the 1 MB block is mapped on its own")
    let small = try XCTUnwrap(malloc(64 << 10))
    defer { free(small) }
    XCTAssertEqual(rk_malloc_mapped_blocks(), before + 1, "a 64 KB block comes from the heap")
  }
}
