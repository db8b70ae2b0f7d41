import Foundation

/// Gradient-boosted regression trees on the logistic loss, small and deterministic.
///
/// Each round fits a depth-limited tree to the loss's gradient g = p - y with Newton steps
/// (hessian h = p(1 - p)): a split's gain is G_L^2/(H_L + l2) + G_R^2/(H_R + l2) - G^2/(H + l2)
/// and a leaf's value -G/(H + l2), shrunk by the learning rate (stored already shrunk). Trees
/// grow level by level over features sorted once; candidate thresholds are midpoints between
/// consecutive distinct values; of equal gains the first feature and the lowest threshold win.
public struct BoostedTrees: Codable, Equatable, Sendable {
    /// How the trees are grown.
    public struct Parameters: Codable, Equatable, Sendable {
        public var rounds = 40
        public var maxDepth = 3
        public var learningRate = 0.2
        /// L2 penalty on leaf values (in the denominators above).
        public var l2 = 1.0
        /// A split leaves at least this many examples on each side.
        public var minExamplesPerLeaf = 5

        /// The defaults above.
        public init() {}

        enum CodingKeys: String, CodingKey {
            case rounds, maxDepth = "max_depth", learningRate = "learning_rate", l2, minExamplesPerLeaf = "min_examples_per_leaf"
        }
    }

    /// The log-odds every prediction starts from: that of the training labels' positive share.
    public var bias: Double
    public var trees: [RegressionTree]

    /// A model with every part given.
    public init(bias: Double, trees: [RegressionTree]) {
        self.bias = bias
        self.trees = trees
    }

    /// The log-odds of a positive label for `x`.
    public func logit(_ x: [Double]) -> Double {
        trees.reduce(bias) { $0 + $1.value(x) }
    }

    /// The probability of a positive label for `x`.
    public func probability(_ x: [Double]) -> Double {
        1 / (1 + exp(-logit(x)))
    }

    /// Trees fitted to `features` (one row per example, all of one length) and `labels`.
    public static func train(features: [[Double]], labels: [Bool], parameters: Parameters = Parameters()) -> BoostedTrees {
        precondition(features.count == labels.count, "\(features.count) feature rows for \(labels.count) labels")
        let n = features.count
        guard n > 0 else { return BoostedTrees(bias: 0, trees: []) }
        let d = features[0].count
        let y = labels.map { $0 ? 1.0 : 0.0 }
        // Clamped so that a set of one label still has a finite start.
        let share = min(max(y.reduce(0, +) / Double(n), 1e-6), 1 - 1e-6)
        let bias = log(share / (1 - share))
        // Every feature's example order, sorted once (ties in example order).
        let sorted = (0..<d).map { f in (0..<n).sorted { (features[$0][f], $0) < (features[$1][f], $1) } }
        var logits = [Double](repeating: bias, count: n)
        var trees: [RegressionTree] = []
        for _ in 0..<parameters.rounds {
            var g = [Double](repeating: 0, count: n), h = [Double](repeating: 0, count: n)
            for i in 0..<n {
                let p = 1 / (1 + exp(-logits[i]))
                g[i] = p - y[i]
                h[i] = p * (1 - p)
            }
            let tree = TreeGrower(features: features, sorted: sorted, g: g, h: h, parameters: parameters).grow()
            for i in 0..<n { logits[i] += tree.value(features[i]) }
            trees.append(tree)
        }
        return BoostedTrees(bias: bias, trees: trees)
    }

    /// Why the model cannot be used with `featureCount` features, or nil when it can.
    func problem(featureCount: Int) -> String? {
        guard bias.isFinite else { return "bias is not a finite number" }
        for (t, tree) in trees.enumerated() {
            if let p = tree.problem(featureCount: featureCount) { return "trees[\(t)]: \(p)" }
        }
        return nil
    }
}

/// One regression tree as a flat list of nodes; node 0 is the root, children come after their parent.
public struct RegressionTree: Codable, Equatable, Sendable {
    /// A split (`x[feature] < threshold` goes left) or a leaf.
    public enum Node: Codable, Equatable, Sendable {
        case split(feature: Int, threshold: Double, left: Int, right: Int)
        case leaf(value: Double)

        enum CodingKeys: String, CodingKey { case feature, threshold, left, right, value }

        /// Reads `{"value": v}` or `{"feature", "threshold", "left", "right"}`.
        public init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            if c.contains(.value) {
                self = .leaf(value: try c.decode(Double.self, forKey: .value))
            } else {
                self = .split(feature: try c.decode(Int.self, forKey: .feature), threshold: try c.decode(Double.self, forKey: .threshold),
                              left: try c.decode(Int.self, forKey: .left), right: try c.decode(Int.self, forKey: .right))
            }
        }

        /// Writes the form `init(from:)` reads: one flat object, where a synthesised encoder would nest
        /// each case's values under the case's name.
        public func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            switch self {
            case .leaf(let value):
                try c.encode(value, forKey: .value)
            case .split(let feature, let threshold, let left, let right):
                try c.encode(feature, forKey: .feature)
                try c.encode(threshold, forKey: .threshold)
                try c.encode(left, forKey: .left)
                try c.encode(right, forKey: .right)
            }
        }
    }

    public var nodes: [Node]

    /// A tree of `nodes`.
    public init(nodes: [Node]) { self.nodes = nodes }

    /// The leaf value `x` reaches.
    public func value(_ x: [Double]) -> Double {
        var k = 0
        while true {
            switch nodes[k] {
            case .leaf(let value): return value
            case .split(let feature, let threshold, let left, let right): k = x[feature] < threshold ? left : right
            }
        }
    }

    /// Why the tree cannot be walked with `featureCount` features, or nil when it can.
    func problem(featureCount: Int) -> String? {
        guard !nodes.isEmpty else { return "a tree without nodes" }
        for (k, node) in nodes.enumerated() {
            switch node {
            case .leaf(let value):
                if !value.isFinite { return "nodes[\(k)]: the value is not a finite number" }
            case .split(let feature, let threshold, let left, let right):
                if !(0..<featureCount).contains(feature) { return "nodes[\(k)]: feature \(feature) is not one of the \(featureCount) features" }
                if !threshold.isFinite { return "nodes[\(k)]: the threshold is not a finite number" }
                // Children after their parent: no cycles, every walk ends.
                for child in [left, right] where !(k + 1..<nodes.count).contains(child) {
                    return "nodes[\(k)]: child \(child) is not a node after it"
                }
            }
        }
        return nil
    }
}

/// Grows one tree level by level: each level scans every feature's sorted examples once and
/// keeps, per open node, the best split seen.
private struct TreeGrower {
    let features: [[Double]]
    let sorted: [[Int]]
    let g: [Double]
    let h: [Double]
    let parameters: BoostedTrees.Parameters

    private struct Open {
        var node: Int
        var gradient = 0.0, hessian = 0.0
        var count = 0
        var best: (gain: Double, feature: Int, threshold: Double)? = nil
    }

    func grow() -> RegressionTree {
        let n = features.count
        var nodes: [RegressionTree.Node] = [.leaf(value: 0)]
        // The open node (index into `open`) each example is in; -1 once it sits in a final leaf.
        var place = [Int](repeating: 0, count: n)
        var open = [Open(node: 0)]
        for i in 0..<n { open[0].gradient += g[i]; open[0].hessian += h[i]; open[0].count += 1 }
        let l2 = parameters.l2, minLeaf = parameters.minExamplesPerLeaf
        func score(_ gs: Double, _ hs: Double) -> Double { gs * gs / (hs + l2) }
        for depth in 0...parameters.maxDepth {
            if depth < parameters.maxDepth {
                for f in features.first.map({ 0..<$0.count }) ?? 0..<0 {
                    var left = [(g: Double, h: Double, count: Int, last: Double?)](repeating: (0, 0, 0, nil), count: open.count)
                    for i in sorted[f] {
                        let k = place[i]
                        guard k >= 0 else { continue }
                        let v = features[i][f]
                        let o = open[k]
                        if let last = left[k].last, v != last, left[k].count >= minLeaf, o.count - left[k].count >= minLeaf {
                            let gain = score(left[k].g, left[k].h) + score(o.gradient - left[k].g, o.hessian - left[k].h) - score(o.gradient, o.hessian)
                            if gain > (open[k].best?.gain ?? 1e-12) { open[k].best = (gain, f, (last + v) / 2) }
                        }
                        left[k].g += g[i]; left[k].h += h[i]; left[k].count += 1; left[k].last = v
                    }
                }
            }
            var next: [Open] = []
            // Where the examples of each split open node go: its two children's indices in `next`.
            var children = [(Int, Int)?](repeating: nil, count: open.count)
            for (k, o) in open.enumerated() {
                if depth < parameters.maxDepth, let best = o.best {
                    let (l, r) = (nodes.count, nodes.count + 1)
                    nodes[o.node] = .split(feature: best.feature, threshold: best.threshold, left: l, right: r)
                    nodes.append(.leaf(value: 0)); nodes.append(.leaf(value: 0))
                    children[k] = (next.count, next.count + 1)
                    next.append(Open(node: l)); next.append(Open(node: r))
                } else {
                    nodes[o.node] = .leaf(value: -o.gradient / (o.hessian + l2) * parameters.learningRate)
                }
            }
            for i in 0..<n where place[i] >= 0 {
                let k = place[i]
                guard let pair = children[k], case .split(let f, let t, _, _) = nodes[open[k].node] else { place[i] = -1; continue }
                let child = features[i][f] < t ? pair.0 : pair.1
                place[i] = child
                next[child].gradient += g[i]; next[child].hessian += h[i]; next[child].count += 1
            }
            open = next
            if open.isEmpty { break }
        }
        return RegressionTree(nodes: nodes)
    }
}
