import Foundation
enum HostileWriter { static func write(directory: String) throws {} }
