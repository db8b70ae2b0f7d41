#!/usr/bin/env bash
# Prints the compiler flags that tune the build for the CPU it runs on (AVX2/FMA or AVX-512
# on x86-64, NEON on arm64): the hot loops vectorise only as wide as the target CPU allows,
# and generic x86-64 is SSE2. Package.swift stays portable; every script builds with these.
# UIDETECT_TARGET_CPU overrides the CPU (e.g. haswell for a binary other AVX2 machines will run; x86-64 for any).
echo "-Xswiftc -target-cpu -Xswiftc ${UIDETECT_TARGET_CPU:-native}"
