import Synchronization

/// A tensor's gradient described by the op that consumes the tensor but not yet written: an
/// elementwise rule from buffers that op holds. The tensor's producer can make it a block of rows
/// at a time inside its own backward pass (`Node.backwardOfDeferred`), while the block is in cache,
/// instead of reading a whole written gradient from memory. Anything else that reads the gradient
/// has it written first, in full (`Tensor.gradStorage`).
///
/// Batch norm's input gradient, dx = A g + B x + C per channel, made inside the 1x1 convolution
/// before it: written whole, it went to memory and came back for the conv's two products.
final class DeferredGradient {
    /// Rows (a row: the last axis, `rowLength` floats).
    let rows: Int
    let rowLength: Int
    /// A buffer the rule may write the gradient over, in place: each element reads only its own
    /// elements of the buffers the rule holds, this one among them. Owned by the gradient.
    let buffer: Storage
    /// Writes rows `range` of the gradient to `destination` (row `range.lowerBound` first). Safe to
    /// call concurrently on disjoint ranges.
    let writeRows: (_ range: Range<Int>, _ destination: UnsafeMutablePointer<Float>) -> Void

    init(rows: Int, rowLength: Int, buffer: Storage, writeRows: @escaping (Range<Int>, UnsafeMutablePointer<Float>) -> Void) {
        precondition(buffer.count >= rows * rowLength, "a deferred gradient's buffer is smaller than the gradient")
        self.rows = rows
        self.rowLength = rowLength
        self.buffer = buffer
        self.writeRows = writeRows
    }

    /// The whole gradient, written over `buffer`.
    func written() -> Storage {
        Autodiff.testingDeferredWritten.add(1, ordering: .relaxed)
        let rowsPerBlock = max(1, (1 << 14) / max(1, rowLength))
        Parallel.forEachBlock(count: rows, blockSize: rowsPerBlock) { _, r in
            writeRows(r, buffer.pointer + r.lowerBound * rowLength)
        }
        return buffer
    }
}
