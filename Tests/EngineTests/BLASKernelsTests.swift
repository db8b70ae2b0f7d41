import XCTest
@testable import Engine

final class BLASKernelsTests: XCTestCase {
    let zen5: Set<String> = ["avx2", "fma", "avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl", "avx512_bf16", "avx512_vnni"]
    let skylake: Set<String> = ["avx2", "fma", "avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl"]
    let haswell: Set<String> = ["avx", "avx2", "fma"]

    func testAnAVX512CPUTakenForHaswellGetsAVX512Kernels() {
        XCTAssertEqual(BLASKernels.better(than: "Haswell", cpuFlags: zen5), "Cooperlake")
        XCTAssertEqual(BLASKernels.better(than: "Zen", cpuFlags: zen5), "Cooperlake")
        XCTAssertEqual(BLASKernels.better(than: "Haswell", cpuFlags: skylake), "SkylakeX")
    }

    func testNoChangeWhenTheKernelsAlreadyUseAVX512OrTheCPUCannotRunThem() {
        XCTAssertNil(BLASKernels.better(than: "Cooperlake", cpuFlags: zen5))
        XCTAssertNil(BLASKernels.better(than: "SkylakeX", cpuFlags: zen5))
        XCTAssertNil(BLASKernels.better(than: "Haswell", cpuFlags: haswell))
        // AVX-512 without the byte/word and doubleword subsets (Knights Landing) cannot run SkylakeX kernels.
        XCTAssertNil(BLASKernels.better(than: "Haswell", cpuFlags: ["avx2", "avx512f", "avx512cd"]))
        XCTAssertNil(BLASKernels.better(than: "neoversen1", cpuFlags: []))
    }

    func testFlagsAreReadFromCPUInfo() {
        let cpuinfo = "processor\t: 0\nvendor_id\t: AuthenticAMD\nflags\t\t: fpu avx2 avx512f avx512bw\nbugs\t\t: sysret_ss_attrs\n"
        XCTAssertEqual(BLASKernels.cpuFlags(cpuinfo: cpuinfo), ["fpu", "avx2", "avx512f", "avx512bw"])
        XCTAssertEqual(BLASKernels.cpuFlags(cpuinfo: nil), [])
    }

}
