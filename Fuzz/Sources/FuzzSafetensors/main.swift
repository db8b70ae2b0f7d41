import Checkpoints
import Detection
import Foundation
import FuzzDriver

// Safetensors files as a checkpoint is loaded: the container first, then the detector its metadata
// describes, rebuilt and filled from the tensors.
fuzz { data in
    guard let (tensors, _) = try? Safetensors.decode(data, path: "fuzz.safetensors") else { return }
    for t in tensors {
        precondition(t.values.count == t.shape.reduce(1, *), "tensor \(t.name) has \(t.values.count) values for shape \(t.shape)")
    }
    _ = try? DetectorWeights.decode(data, path: "fuzz.safetensors")
}
