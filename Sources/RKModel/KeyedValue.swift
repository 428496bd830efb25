// Generic values for everything the model does not type: unknown keys, active-task results.

/// A value of any archived shape, so unmodelled data is kept rather than dropped.
public indirect enum KeyedValue: Sendable, Equatable {
  case null
  case bool(Bool)
  case number(NumberValue)
  case string(String)
  case data([UInt8])
  case date(Instant)
  case array([KeyedValue])
  /// A dictionary with keys in input order.
  case dictionary([Field])
  /// An archived object of a class we keep generically, with its keys in input order.
  case object(className: String, fields: [Field])
}
