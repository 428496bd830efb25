// swift-tools-version:6.0
// rkexport: ResearchKit result archives → tidy CSV, XLSX, statistics and a codebook.
//
// Data flows one way and the targets say so:
//   RKImport (files → RKModel values) → RKTidy (values → RKTable rows) → RKWrite (rows → files)
// RKPipeline wires the stages for a run; `rkexport` is the thin command line on top.
import PackageDescription

let package = Package(
  name: "rkexport",
  products: [
    .executable(name: "rkexport", targets: ["rkexport"]),
    .library(name: "RKImport", targets: ["RKImport"]),
    .library(name: "RKPipeline", targets: ["RKPipeline"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.19"),
  ],
  targets: [
    // Result model: plain values, no I/O.
    .target(name: "RKModel"),
    // Cells, columns and row sinks: the vocabulary shared by the flattener and the writers.
    .target(name: "RKTable"),
    // zlib's CRC-32 for zip entries: ZIPFoundation's own, which it uses on Linux, reads a byte
    // at a time (a tenth of the time of an export of archives in zips).
    .systemLibrary(
      name: "CZipChecksum",
      pkgConfig: "zlib",
      providers: [.apt(["zlib1g-dev"])]
    ),
    // Readers: binary/XML plists, keyed archives, ResearchKit classes, JSON, inputs and zips.
    .target(
      name: "RKImport",
      dependencies: [
        "RKModel", "RKTable", "CZipChecksum",
        .product(name: "ZIPFoundation", package: "ZIPFoundation"),
      ]
    ),
    // Flattener, wide pivot, statistics, codebook: rows, no files.
    .target(name: "RKTidy", dependencies: ["RKModel", "RKTable"]),
    // libxlsxwriter, through pkg-config (Debian: libxlsxwriter-dev zlib1g-dev pkg-config).
    .systemLibrary(
      name: "CXLSXWriter",
      pkgConfig: "xlsxwriter",
      providers: [.apt(["libxlsxwriter-dev", "zlib1g-dev", "pkg-config"])]
    ),
    // The deflate level of the workbook's zip entries, and deflating them on every core
    // (libxlsxwriter has no option for either). zlib comes with libxlsxwriter.
    // dlsym: in libc since glibc 2.34, in libdl before (an empty libdl.a now).
    .target(name: "CZipLevel", linkerSettings: [.linkedLibrary("dl"), .linkedLibrary("z")]),
    // The text of the workbook's number cells: the shortest round trip instead of printf's
    // %.16G (one digit short, and slow).
    .target(name: "CXLSXNumbers", dependencies: ["CXLSXCells"]),
    // libxlsxwriter's per-cell and per-row helpers (cell names, string escapes, row tags)
    // without printf and without zeroed buffers many times the size of what they hold.
    .target(name: "CXLSXCells", dependencies: ["CXLSXWriter"]),
    // A clear error instead of a crash when a mapped file (the --state file) is cut short by
    // another program while a run reads it (SIGBUS).
    .target(name: "CMapGuard"),
    // Large blocks back to the system when freed: peak memory flat in the archive count.
    .target(name: "CMallocPolicy"),
    // CSV, XLSX and datapackage.json writers: know nothing of ResearchKit.
    .target(
      name: "RKWrite",
      dependencies: ["RKTable", "CXLSXWriter", "CZipLevel", "CXLSXNumbers", "CXLSXCells"]),
    // One export run: walk inputs, parse in parallel, flatten and write in a deterministic order.
    .target(
      name: "RKPipeline",
      dependencies: ["RKModel", "RKTable", "RKImport", "RKTidy", "RKWrite", "CMapGuard"]),
    .executableTarget(
      name: "rkexport",
      dependencies: [
        "RKPipeline", "RKImport", "RKModel", "RKTable", "RKTidy", "CMallocPolicy",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // What several test targets share: the seeded generator of their randomized tests.
    .target(name: "RKTestSupport", path: "Tests/RKTestSupport"),
    // ZIPFoundation to compare the zip reader's own reading of entry names and types with it.
    .testTarget(
      name: "RKImportTests",
      dependencies: [
        "RKImport", "RKModel", "RKTestSupport",
        .product(name: "ZIPFoundation", package: "ZIPFoundation"),
      ],
      exclude: ["Fixtures"]
    ),
    .testTarget(
      name: "RKTidyTests", dependencies: ["RKTidy", "RKModel", "RKTable", "RKTestSupport"]),
    // RKImport for its zip directory scanner, which reads the written workbooks back;
    // ZIPFoundation to inflate their entries with a reader of its own; CZipLevel to drive the
    // deflate shim through minizip directly; CXLSXNumbers and CXLSXWriter to see number cells
    // written by libxlsxwriter itself; CXLSXCells to compare its helpers with the library's;
    // CZipChecksum for zlib's CRC-32.
    .testTarget(
      name: "RKWriteTests",
      dependencies: [
        "RKWrite", "RKTable", "RKImport", "CZipLevel", "CXLSXNumbers", "CXLSXCells",
        "CXLSXWriter", "CZipChecksum", "RKTestSupport",
        .product(name: "ZIPFoundation", package: "ZIPFoundation"),
      ]),
    .testTarget(
      name: "RKPipelineTests",
      dependencies: ["RKPipeline", "RKModel", "RKTable", "CMapGuard", "RKTestSupport"]),
    .testTarget(
      name: "RKExportTests", dependencies: ["rkexport", "CMallocPolicy"], exclude: ["Fixtures"]),
  ],
  swiftLanguageModes: [.v6]
)
