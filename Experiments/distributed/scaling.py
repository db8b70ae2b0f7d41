#!/usr/bin/env python3
"""Scaling model for data-parallel training over MPI (issue 17), from figures measured on one machine.

Usage: scaling.py BENCH_IMAGES_PER_S PAPER_IMAGES_PER_S [ALPHA_US] [LOCAL_MS]
  BENCH_IMAGES_PER_S  one machine (2 threads), `bench` network, batch 8 (uidetect train's logged rate)
  PAPER_IMAGES_PER_S  one machine (2 threads), `paper-size` network, batch 16 (uidetect bench train)
  ALPHA_US            latency per message of the link (default 30 us: TCP on a switched 10/25 GbE LAN)
  LOCAL_MS            per step, what a gradient sum costs besides the link: the rank-ordered sum itself and
                      waiting for the slowest rank (default 0; measured on one machine with 2 ranks: 13.3 ms)

Model. Each machine keeps its batch (8 for bench, 16 for paper-size), so N machines train a global batch
N times larger; the step is the measured compute time plus one gradient sum after backward (our trainer
does not overlap the two). Our sum is an all-to-all of 1/N slices, a sum in rank order, and an all-gather:
each rank sends and receives 2 (N-1)/N of the gradient bytes, the same volume as a ring all-reduce, in
2 (N-1) messages. Links run at 90% of their nominal rate.
"""
import sys

GRADIENT_BYTES = {"bench": 1_250_024 * 4, "paper-size": 5_512_136 * 4}
BATCH = {"bench": 8, "paper-size": 16}
PAPER_ITERATIONS, PAPER_BATCH = 557_000, 16   # the paper's 557k iterations, at the paper-size batch


def step_seconds(images_per_s, network, machines, gbit, alpha, local):
    compute = BATCH[network] / images_per_s
    if machines == 1:
        return compute, 0.0
    bandwidth = gbit * 1e9 / 8 * 0.9
    comm = 2 * (machines - 1) / machines * GRADIENT_BYTES[network] / bandwidth + 2 * (machines - 1) * alpha + local
    return compute + comm, comm


def main():
    rates = {"bench": float(sys.argv[1]), "paper-size": float(sys.argv[2])}
    alpha = (float(sys.argv[3]) if len(sys.argv) > 3 else 30) * 1e-6
    local = (float(sys.argv[4]) if len(sys.argv) > 4 else 0) * 1e-3
    images = PAPER_ITERATIONS * PAPER_BATCH
    print(f"| network | link | machines | global batch | learning rate | gradient sum, ms | step, ms | images/s | speed-up | hours for {images / 1e6:.1f} M images (557k x 16) |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for network in ["bench", "paper-size"]:
        for gbit in [10, 25]:
            for n in [1, 2, 4, 8, 16, 64]:
                step, comm = step_seconds(rates[network], network, n, gbit, alpha, local)
                ips = n * BATCH[network] / step
                print(f"| {network} | {gbit} Gbit/s | {n} | {n * BATCH[network]} | {n} x base | {1000 * comm:.1f} | {1000 * step:.0f} | "
                      f"{ips:.1f} | {ips / rates[network]:.2f} | {images / ips / 3600:.0f} |")


if __name__ == "__main__":
    main()
