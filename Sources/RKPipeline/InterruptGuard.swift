// SIGINT and SIGTERM during an export: remove what this run staged, keep the old outputs, exit.
import Dispatch
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Turns SIGINT and SIGTERM into a clean stop: the staged files are removed, the previous
/// outputs stay as they were, one line says so, and the process exits 130 (SIGINT) or 143
/// (SIGTERM), the statuses a shell reports for those signals.
///
/// The signals are received on a dispatch queue, not in a C signal handler, so the cleanup may
/// use ordinary file calls. Work that must not be cut in half (the commit's renames) runs inside
/// `critical(_:)`: a signal arriving then waits for it, and the new outputs are complete.
public final class InterruptGuard: @unchecked Sendable {
  /// Exit status after SIGINT (128 + 2).
  public static let interruptStatus: Int32 = 130
  /// Exit status after SIGTERM (128 + 15).
  public static let terminateStatus: Int32 = 143

  private let mutex = NSRecursiveLock()  // markCommitted() runs inside critical()
  private var sources: [DispatchSourceSignal] = []
  private var cleanups: [() -> Void] = []
  private var committed = false
  private let queue = DispatchQueue(label: "rkexport.signals")
  private let report: @Sendable (String) -> Void

  /// Starts listening; `report` prints the closing line (on stderr, in the run's log format).
  public init(report: @escaping @Sendable (String) -> Void) {
    self.report = report
    for (number, status) in [(SIGINT, Self.interruptStatus), (SIGTERM, Self.terminateStatus)] {
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
      source.setEventHandler { [unowned self] in self.stop(signal: number, status: status) }
      source.resume()
      sources.append(source)
    }
  }

  /// Registers cleanup work run (in order) when a signal stops the run.
  public func onInterrupt(_ cleanup: @escaping () -> Void) {
    mutex.lock()
    cleanups.append(cleanup)
    mutex.unlock()
  }

  /// Runs `work` without interruption; a signal meanwhile is handled after it.
  public func critical<T>(_ work: () throws -> T) rethrows -> T {
    mutex.lock()
    defer { mutex.unlock() }
    return try work()
  }

  /// Marks the outputs as committed: an interruption now only says so.
  public func markCommitted() {
    mutex.lock()
    committed = true
    mutex.unlock()
  }

  /// Restores the default signal dispositions.
  /// Returns at once, unless a signal is being handled: then it blocks until that handler ends
  /// the process. Call before exiting on an error, which may be the interrupt's own doing (a
  /// write into the staging folder the handler is removing), so the exit status says SIGTERM.
  public func waitForInterruptHandling() {
    mutex.lock()
    mutex.unlock()
  }

  public func stopListening() {
    for source in sources { source.cancel() }
    sources.removeAll()
    signal(SIGINT, SIG_DFL)
    signal(SIGTERM, SIG_DFL)
  }

  private func stop(signal number: Int32, status: Int32) {
    mutex.lock()  // waits for a commit in progress; never released: the process ends here
    let name = number == SIGINT ? "SIGINT" : "SIGTERM"
    // After the commit the cleanups find no staged files; they still release the lock.
    for cleanup in cleanups.reversed() { cleanup() }
    if committed {
      report("interrupted by \(name) after the outputs were complete")
    } else {
      report("interrupted by \(name): nothing written, the previous outputs are unchanged")
    }
    _exit(status)
  }
}
