import Distributed
import Engine

/// Warns, once, when a data-parallel run's steps are too long for Ctrl-C to keep the step in progress:
/// Open MPI kills the ranks `grace` seconds after asking them to stop, and they need a step and a
/// checkpoint in that time.
final class InterruptGraceHook: TrainingHook {
    private let grace: Double
    private var firstStepEnd: Double?
    private var steps = 0
    private var warned = false

    init(grace: Double = ProcessGroup.interruptGraceSeconds) { self.grace = grace }

    func afterStep(_ record: inout StepRecord, _ run: TrainingContext) throws {
        let now = monotonicSeconds()
        // The first step warms caches and the pipeline up; the next two give the pace.
        guard let start = firstStepEnd else { firstStepEnd = now; return }
        if record.validation != nil { firstStepEnd = now; steps = 0; return }
        steps += 1
        guard steps == 2, !warned else { return }
        warned = true
        if let advice = Self.advice(perStep: (now - start) / Double(steps), grace: grace) { run.logger.warning("\(advice)") }
    }

    /// What to tell the user when a step of `perStep` seconds and a checkpoint may not fit in `grace` seconds; nil when they fit.
    static func advice(perStep: Double, grace: Double) -> String? {
        guard 2 * perStep > grace else { return nil }
        let suggested = max(5, Int((4 * perStep).rounded(.up)))
        return "a step takes \(String(format: "%.1f", perStep)) s and Open MPI kills the ranks \(String(format: "%g", grace)) s after Ctrl-C asks them "
            + "to stop (odls_base_sigkill_timeout), so a Ctrl-C may lose checkpoints/last: launch with mpirun --mca odls_base_sigkill_timeout "
            + "\(suggested) (Ctrl-C then takes about \(2 * suggested) s)"
    }
}
