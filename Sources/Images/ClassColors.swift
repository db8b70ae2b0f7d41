/// A distinct colour per class index, for overlays and reports.
public enum ClassColors {
    static let palette: [UInt32] = [
        0xE6194B, 0x3CB44B, 0x4363D8, 0xF58231, 0x911EB4, 0x42D4F4, 0xF032E6, 0xBFEF45, 0xFABED4, 0x469990,
        0xDCBEFF, 0x9A6324, 0xFFE119, 0x800000, 0xAAFFC3, 0x808000, 0xFFD8B1, 0x000075, 0xA9A9A9, 0x000000,
    ]

    /// The colour of class `index`.
    public static func color(_ index: Int) -> RGB { RGB(hex: palette[((index % palette.count) + palette.count) % palette.count]) }
}
