#ifndef UIDETECT_PNG_DECODING_H
#define UIDETECT_PNG_DECODING_H

#include <stddef.h>
#include <stdint.h>

/// PNG decoding through libpng's full API, which reports errors by longjmp: Swift cannot be jumped
/// over, so the jump lands here, in C, and comes back as a message.
///
/// Both functions return NULL on success, or `message` holding why the file cannot be read
/// (at most `capacity` bytes, NUL-terminated).

/// The width and height the PNG's header (IHDR) declares; nothing of that size is allocated.
const char *uidetect_png_size(const uint8_t *data, size_t size, uint32_t *width, uint32_t *height,
                              char *message, size_t capacity);

/// Decodes the PNG into `rgb` (`width` x `height` x 3 bytes, rows top to bottom), `width` and
/// `height` being what `uidetect_png_size` gave: 8-bit samples as stored, without gamma or colour
/// management (gAMA, cHRM, iCCP, sRGB ignored); 16-bit samples scaled to 8 bits with rounding,
/// (v * 255 + 32767) / 65535; palette, gray and low bit depths expanded; tRNS honoured; interlaced
/// files read; alpha composited onto white, (c * a + 255 * (255 - a) + 127) / 255.
const char *uidetect_png_decode(const uint8_t *data, size_t size, uint8_t *rgb, uint32_t width, uint32_t height,
                                char *message, size_t capacity);

#endif
