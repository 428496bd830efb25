// swift-tools-version:6.0
// samplegen: writes rkexport's sample study, its ground truth, hostile fixtures and a benchmark
// corpus with the real NSKeyedArchiver of swift-corelibs-foundation. A separate package so the
// product never depends on it; run it through `scripts/generate-samples`.
import PackageDescription

let package = Package(
  name: "samplegen",
  targets: [
    .executableTarget(name: "samplegen")
  ],
  swiftLanguageModes: [.v6]
)
