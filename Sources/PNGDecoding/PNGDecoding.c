#include "PNGDecoding.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// What libpng's callbacks share with the caller: the bytes being read and where libpng's error
/// message goes before it jumps back.
typedef struct {
    const uint8_t *data;
    size_t size;
    size_t offset;
    char *message;
    size_t capacity;
    jmp_buf jump;
} Reader;

static void on_error(png_structp png, png_const_charp text) {
    Reader *reader = png_get_error_ptr(png);
    snprintf(reader->message, reader->capacity, "%s", text);
    longjmp(reader->jump, 1);
}

/// Warnings (an ancillary chunk's bad CRC, an unknown chunk) leave the pixels readable: not shown,
/// as an image viewer would not show them.
static void on_warning(png_structp png, png_const_charp text) {
    (void)png;
    (void)text;
}

static void on_read(png_structp png, png_bytep out, size_t count) {
    Reader *reader = png_get_io_ptr(png);
    if (count > reader->size - reader->offset) png_error(png, "the file ends early (truncated)");
    memcpy(out, reader->data + reader->offset, count);
    reader->offset += count;
}

static const char *fail(char *message, size_t capacity, const char *text) {
    snprintf(message, capacity, "%s", text);
    return message;
}

const char *uidetect_png_size(const uint8_t *data, size_t size, uint32_t *width, uint32_t *height,
                              char *message, size_t capacity) {
    if (size < 8 || png_sig_cmp(data, 0, 8) != 0) return fail(message, capacity, "not a PNG signature");
    Reader reader = {data, size, 8, message, capacity};
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &reader, on_error, on_warning);
    if (!png) return fail(message, capacity, "libpng could not start (out of memory)");
    png_infop info = png_create_info_struct(png);
    if (!info) {
        png_destroy_read_struct(&png, NULL, NULL);
        return fail(message, capacity, "libpng could not start (out of memory)");
    }
    if (setjmp(reader.jump)) {
        png_destroy_read_struct(&png, &info, NULL);
        return message;
    }
    // Sizes are judged by the caller (ImageLimits), whose message names the limit: libpng's own
    // limit (a million pixels a side) must not refuse first with another wording.
    png_set_user_limits(png, 0x7fffffff, 0x7fffffff);
    png_set_read_fn(png, &reader, on_read);
    png_set_sig_bytes(png, 8);
    png_read_info(png, info);
    *width = png_get_image_width(png, info);
    *height = png_get_image_height(png, info);
    png_destroy_read_struct(&png, &info, NULL);
    return NULL;
}

/// Composites one row of 8-bit RGBA onto white into RGB, rounding to nearest.
static void composite_onto_white(const uint8_t *rgba, uint8_t *rgb, uint32_t width) {
    for (uint32_t x = 0; x < width; x++) {
        unsigned a = rgba[4 * x + 3];
        for (int c = 0; c < 3; c++) {
            rgb[3 * x + c] = (uint8_t)((rgba[4 * x + c] * a + 255u * (255u - a) + 127u) / 255u);
        }
    }
}

const char *uidetect_png_decode(const uint8_t *data, size_t size, uint8_t *rgb, uint32_t width, uint32_t height,
                                char *message, size_t capacity) {
    if (size < 8 || png_sig_cmp(data, 0, 8) != 0) return fail(message, capacity, "not a PNG signature");
    Reader reader = {data, size, 8, message, capacity};
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &reader, on_error, on_warning);
    if (!png) return fail(message, capacity, "libpng could not start (out of memory)");
    png_infop info = png_create_info_struct(png);
    if (!info) {
        png_destroy_read_struct(&png, NULL, NULL);
        return fail(message, capacity, "libpng could not start (out of memory)");
    }
    // Set before the jump point and only read after it: volatile, so a longjmp finds what was allocated.
    uint8_t *volatile scratch = NULL;
    png_bytep *volatile rows = NULL;
    if (setjmp(reader.jump)) {
        free(scratch);
        free(rows);
        png_destroy_read_struct(&png, &info, NULL);
        return message;
    }
    png_set_user_limits(png, 0x7fffffff, 0x7fffffff);
    png_set_read_fn(png, &reader, on_read);
    png_set_sig_bytes(png, 8);
    png_read_info(png, info);
    if (png_get_image_width(png, info) != width || png_get_image_height(png, info) != height) {
        png_error(png, "the header's size changed between reads");
    }
    // No png_set_gamma, png_set_alpha_mode or png_set_background: libpng then leaves samples as
    // stored, which is what an image viewer shows of a screenshot (gAMA, cHRM and iCCP ignored).
    png_set_expand(png);  // palette to RGB, gray below 8 bits to 8, tRNS to an alpha channel
    png_set_scale_16(png);  // (v * 255 + 32767) / 65535 exactly, for every 16-bit v
    png_set_gray_to_rgb(png);
    int passes = png_set_interlace_handling(png);
    png_read_update_info(png, info);
    int channels = png_get_channels(png, info);
    if (png_get_bit_depth(png, info) != 8 || (channels != 3 && channels != 4) || png_get_rowbytes(png, info) != (size_t)width * channels) {
        png_error(png, "unexpected layout after expansion to 8-bit RGB");
    }
    if (channels == 3) {
        // Straight into the caller's pixels, interlaced or not.
        rows = malloc(sizeof(png_bytep) * height);
        if (!rows) png_error(png, "out of memory");
        for (uint32_t y = 0; y < height; y++) rows[y] = rgb + (size_t)y * width * 3;
        png_read_image(png, rows);
    } else if (passes == 1) {
        // One RGBA row at a time, composited as it comes.
        scratch = malloc((size_t)width * 4);
        if (!scratch) png_error(png, "out of memory");
        for (uint32_t y = 0; y < height; y++) {
            png_read_row(png, scratch, NULL);
            composite_onto_white(scratch, rgb + (size_t)y * width * 3, width);
        }
    } else {
        // Interlaced passes revisit every row: the whole RGBA image first.
        scratch = malloc((size_t)width * height * 4);
        rows = malloc(sizeof(png_bytep) * height);
        if (!scratch || !rows) png_error(png, "out of memory");
        for (uint32_t y = 0; y < height; y++) rows[y] = scratch + (size_t)y * width * 4;
        png_read_image(png, rows);
        for (uint32_t y = 0; y < height; y++) composite_onto_white(rows[y], rgb + (size_t)y * width * 3, width);
    }
    free(scratch);
    free(rows);
    png_destroy_read_struct(&png, &info, NULL);
    return NULL;
}
