import Images
import Protobuf

/// One tagged value of a summary, TensorBoard's `Summary.Value` (summary.proto).
public struct SummaryValue: Sendable, Equatable {
    /// What the value holds, and so which dashboard shows it.
    public enum Content: Sendable, Equatable {
        /// A scalar (`simple_value`): the scalars dashboard.
        case scalar(Float)
        /// A PNG-encoded RGB image (`Summary.Image`, colorspace 3): the images dashboard.
        case image(width: Int, height: Int, png: [UInt8])
        /// A PR curve: a float32 tensor of shape [6, thresholds] tagged for the pr_curves plugin.
        case prCurve(PRCurve)
    }

    public let tag: String
    public let content: Content

    /// A value of any kind.
    public init(tag: String, content: Content) {
        self.tag = tag
        self.content = content
    }

    /// A scalar.
    public static func scalar(tag: String, value: Float) -> SummaryValue { SummaryValue(tag: tag, content: .scalar(value)) }

    /// An image, encoded here as PNG.
    public static func image(tag: String, image: RGBImage) throws(TensorBoardError) -> SummaryValue {
        let png: [UInt8]
        do { png = Array(try ImageCodec.encodePNG(image, path: tag)) } catch {
            throw .cannotEncodeImage(tag: tag, reason: "\(error)")
        }
        return SummaryValue(tag: tag, content: .image(width: image.width, height: image.height, png: png))
    }

    /// A PR curve.
    public static func prCurve(tag: String, curve: PRCurve) -> SummaryValue { SummaryValue(tag: tag, content: .prCurve(curve)) }

    /// The serialized `Summary.Value`: tag 1, simple_value 2, image 4, tensor 8, metadata 9.
    func encode(into value: inout ProtobufWriter) {
        value.string(1, tag)
        switch content {
        case .scalar(let x):
            value.float(2, x)
        case .image(let width, let height, let png):
            value.message(4) { image in
                image.int(1, height)
                image.int(2, width)
                image.int(3, 3)  // RGB
                image.bytes(4, png)
            }
        case .prCurve(let curve):
            value.message(8) { tensor in
                tensor.int(1, 1)  // DT_FLOAT
                tensor.message(2) { shape in
                    for size in [6, curve.thresholdCount] { shape.message(2) { $0.int(1, size) } }
                }
                tensor.floats(5, curve.rows.flatMap { $0 })
            }
            // With every curve, not only a tag's first as TensorFlow's writer does: a few bytes, and
            // each event file (a resumed run starts a new one) names its plugin on its own.
            value.message(9) { metadata in
                metadata.message(1) { plugin in
                    plugin.string(1, "pr_curves")
                    plugin.bytes(2, Self.prCurvePluginData(thresholdCount: curve.thresholdCount))
                }
            }
        }
    }

    /// The plugin's `PrCurvePluginData` {version 1, num_thresholds 2}: version 0 is proto3's
    /// default and so left out, as the plugin's own serializer does.
    static func prCurvePluginData(thresholdCount: Int) -> [UInt8] {
        var data = ProtobufWriter()
        data.int(2, thresholdCount)
        return data.bytes
    }
}
