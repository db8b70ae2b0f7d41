import Evaluation
import Foundation

/// A training run's page for a person: its curves (training and validation loss, learning
/// rate, validation mAP) above the latest validation's report. Redrawn at each validation.
public struct TrainingRunPage {
    /// One logged step of a run.
    public struct Point: Sendable {
        public var step: Int
        public var loss, classificationLoss, boxLoss: Double
        public var learningRate: Double
        public var validationLoss: Double?
        public var map50, mapCenter: Double?
        public init(step: Int, loss: Double, classificationLoss: Double, boxLoss: Double, learningRate: Double,
                    validationLoss: Double?, map50: Double?, mapCenter: Double?) {
            self.step = step
            self.loss = loss
            self.classificationLoss = classificationLoss
            self.boxLoss = boxLoss
            self.learningRate = learningRate
            self.validationLoss = validationLoss
            self.map50 = map50
            self.mapCenter = mapCenter
        }
    }

    public var title: String
    /// Lines under the title: what was trained, with which weights validated.
    public var notes: [String]
    public var points: [Point]
    public var latestValidation: EvaluationReport?

    public init(title: String, notes: [String], points: [Point], latestValidation: EvaluationReport?) {
        self.title = title
        self.notes = notes
        self.points = points
        self.latestValidation = latestValidation
    }

    public func html() -> String {
        var h = notes.map { "<p>\(HTML.escape($0))</p>" }.joined()
        let validated = points.filter { $0.map50 != nil }
        h += "<div class=\"curves\">"
        h += LineChart(title: "Loss", xLabel: "step", yLabel: "loss", series: [
            .init(name: "training", color: "#1f6fd0", points: points.map { (Double($0.step), $0.loss) }),
            .init(name: "classification", color: "#7aa7e0", points: points.map { (Double($0.step), $0.classificationLoss) }),
            .init(name: "box", color: "#f0a030", points: points.map { (Double($0.step), $0.boxLoss) }),
            .init(name: "validation", color: "#e03a3a", points: points.compactMap { p in p.validationLoss.map { (Double(p.step), $0) } }),
        ]).svg()
        h += LineChart(title: "Validation mAP (%)", xLabel: "step", yLabel: "percent", series: [
            .init(name: "mAP50", color: "#1f6fd0", points: validated.map { (Double($0.step), 100 * $0.map50!) }),
            .init(name: "AP-center", color: "#2a9d4a", points: validated.compactMap { p in p.mapCenter.map { (Double(p.step), 100 * $0) } }),
        ]).svg()
        h += LineChart(title: "Learning rate", xLabel: "step", yLabel: "learning rate", series: [
            .init(name: "lr", color: "#7a4fd0", points: points.map { (Double($0.step), $0.learningRate) }),
        ]).svg()
        h += "</div>"
        if let v = latestValidation {
            h += "<h2>\(HTML.escape(v.title))</h2>" + v.body()
        } else {
            h += "<p class=\"note\">No validation yet.</p>"
        }
        return HTML.page(title: title, body: h)
    }

    /// Writes the page atomically.
    public func write(to url: URL) throws { try HTML.write(html(), to: url) }
}
