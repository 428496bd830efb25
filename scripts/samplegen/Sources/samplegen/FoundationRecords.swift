// Foundation values that swift-corelibs-foundation cannot archive the way Darwin does, written
// key by key as formats.md §1.4 describes: NSDecimalNumber (corelibs has no encoder for its value),
// Darwin's NSDateComponents (only defined fields plus NS.leapMonth), NSCalendar, NSTimeZone and
// NSLocale (small, deterministic records instead of the host's zone data and locale).
import Foundation

/// Base of the NSDecimalNumber stand-in's chain; archived as `NSValue`.
class ValueRecord: NSObject, NSCoding {
  override init() { super.init() }

  required init?(coder: NSCoder) { nil }

  func encode(with coder: NSCoder) {}
}

/// Archived as `NSNumber` (only ever as the decimal record's superclass).
class NumberRecord: ValueRecord {}

/// An `NSDecimalNumber` as iOS archives a typed number: `$classes` NSDecimalNumber, NSNumber,
/// NSValue, NSObject; mantissa as eight 16-bit words, low word first, little-endian bytes.
final class DecimalNumberRecord: NumberRecord {
  let value: DecimalSpec

  init(_ value: DecimalSpec) {
    self.value = value
    super.init()
  }

  required init?(coder: NSCoder) { nil }

  override func encode(with coder: NSCoder) {
    var words = [UInt16]()
    var rest = value.mantissa
    while rest > 0 {
      words.append(UInt16(truncatingIfNeeded: rest))
      rest >>= 16
    }
    var bytes = [UInt8]()
    for index in 0..<8 {
      let word = index < words.count ? words[index] : 0
      bytes.append(UInt8(truncatingIfNeeded: word))
      bytes.append(UInt8(truncatingIfNeeded: word >> 8))
    }
    coder.encode(value.exponent, forKey: "NS.exponent")
    coder.encode(words.count, forKey: "NS.length")
    coder.encode(value.negative, forKey: "NS.negative")
    coder.encode(value.compact, forKey: "NS.compact")
    coder.encode(1, forKey: "NS.mantissa.bo")
    bytes.withUnsafeBufferPointer { buffer in
      coder.encodeBytes(buffer.baseAddress, length: buffer.count, forKey: "NS.mantissa")
    }
  }
}

/// `NSDateComponents` as Darwin writes it: only the defined fields, plus `NS.leapMonth`.
final class DateComponentsRecord: NSObject, NSCoding {
  let hour: Int
  let minute: Int

  init(hour: Int, minute: Int) {
    self.hour = hour
    self.minute = minute
    super.init()
  }

  required init?(coder: NSCoder) { nil }

  func encode(with coder: NSCoder) {
    coder.encode(hour, forKey: "NS.hour")
    coder.encode(minute, forKey: "NS.minute")
    coder.encode(0, forKey: "NS.leapMonth")
  }
}

/// `NSTimeZone` with its Olson name (`NS.name`); the binary `NS.data` is left out.
final class TimeZoneRecord: NSObject, NSCoding {
  let name: String

  init(name: String) {
    self.name = name
    super.init()
  }

  required init?(coder: NSCoder) { nil }

  func encode(with coder: NSCoder) {
    coder.encode(name as NSString, forKey: "NS.name")
  }
}

/// `NSLocale` (`NS.identifier`).
final class LocaleRecord: NSObject, NSCoding {
  let identifier: String

  init(identifier: String) {
    self.identifier = identifier
    super.init()
  }

  required init?(coder: NSCoder) { nil }

  func encode(with coder: NSCoder) {
    coder.encode(identifier as NSString, forKey: "NS.identifier")
  }
}

/// A fixed (not autoupdating) Gregorian `NSCalendar`, as ResearchKit stores in date results.
final class CalendarRecord: NSObject, NSCoding {
  let timeZone: TimeZoneRecord
  let locale: LocaleRecord

  init(timeZone: TimeZoneRecord, locale: LocaleRecord) {
    self.timeZone = timeZone
    self.locale = locale
    super.init()
  }

  required init?(coder: NSCoder) { nil }

  func encode(with coder: NSCoder) {
    coder.encode("gregorian" as NSString, forKey: "NS.identifier")
    coder.encode(timeZone, forKey: "NS.timezone")
    coder.encode(locale, forKey: "NS.locale")
    coder.encode(1, forKey: "NS.firstwkdy")
    coder.encode(1, forKey: "NS.mindays")
  }
}

/// Archive names of the stand-in classes above (the ORK classes keep their own names).
let foundationRecordNames: [String: String] = [
  "ValueRecord": "NSValue",
  "NumberRecord": "NSNumber",
  "DecimalNumberRecord": "NSDecimalNumber",
  "DateComponentsRecord": "NSDateComponents",
  "TimeZoneRecord": "NSTimeZone",
  "LocaleRecord": "NSLocale",
  "CalendarRecord": "NSCalendar",
]
