// One object per thread, for the decoding caches each parsing thread keeps to itself.
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A thread-specific slot (pthread key) holding one object per thread: made on a thread's
/// first use, released when the thread ends. Its objects are never shared between threads,
/// so they need no lock.
final class ThreadSlot<Object: AnyObject>: @unchecked Sendable {
  private let key: pthread_key_t

  /// Made once per kind of object (a global `let`): keys are few and never deleted.
  init() {
    var key = pthread_key_t()
    pthread_key_create(&key) { stored in
      guard let stored else { return }
      Unmanaged<AnyObject>.fromOpaque(stored).release()
    }
    self.key = key
  }

  /// This thread's object, made by `make` on first use.
  @inline(__always)
  func object(orMake make: () -> Object) -> Object {
    if let stored = pthread_getspecific(key) {
      return Unmanaged<Object>.fromOpaque(stored).takeUnretainedValue()
    }
    let object = make()
    pthread_setspecific(key, Unmanaged.passRetained(object as AnyObject).toOpaque())
    return object
  }
}
