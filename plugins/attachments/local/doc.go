// Package local is the attachment-local plugin: the local backend
// of the attachments seam (package attachments). Images are admitted,
// normalized and stored content-addressed below <home>/attachments/v1.
//
// Home: Config.Home when set (an explicit "" is the working directory),
// else $CORDON_HOME when not blank, else the user's state directory:
// $XDG_STATE_HOME/cordon when XDG_STATE_HOME is absolute, otherwise
// ~/.local/state/cordon. A leading "~" is expanded; the result is absolute.
// New performs no I/O.
//
// Admission (SaveImage, SaveImages, ValidateImage) follows
// docs/attachments.md "Admission" in its observable order: byte limit, empty,
// header (format by signature only: PNG, JPEG, GIF, WebP; dimensions
// orientation-applied), pixel limit, per-side limit, full decode of the first
// frame, declared-type check, normalization. The limits are checked on header
// dimensions (image.DecodeConfig plus small container walks) before any pixel
// buffer is allocated. Transforms run in a FIFO limiter of
// imageCompressionConcurrency slots; commits are not limited. Each transform
// then reserves an estimate of its peak memory, computed from the header
// (estimate.go), against a process-wide budget of imageTransformMemoryBytes
// (default 2 GiB): it waits in arrival order for room, at most
// imageTransformMemoryWaitMs (then ATTACHMENT_BUSY), and an image whose
// estimate alone exceeds the budget is IMAGE_OVER_MEMORY_BUDGET before
// anything is decoded. INVALID_IMAGE keeps its fixed message and chains an
// attachments.ImageFault saying what failed. docs/attachments.md is the
// contract.
//
// Normalization (docs/attachments.md "Normalization"): a clean, single-frame,
// 8-bit sRGB PNG/JPEG/WebP within normalizedImageMaxDimension and
// normalizedImageMaxBytes passes through byte-identically (its id is the
// SHA-256 of the upload). Anything else (GIF, animation,
// EXIF/XMP/ICC/IPTC/text metadata, any orientation tag, greyscale, 16-bit,
// CMYK, too large) is decoded, auto-oriented, converted to 8-bit sRGB(A),
// resized to fit the long-edge cap (the Catmull-Rom kernel of x/image/draw,
// premultiplied, in a streaming float32 resampler that keeps a few rows
// instead of x/image/draw's dstW×srcH float64 buffer), and encoded with a
// lazy candidate ladder inside a byte-budget loop, then verified by a full
// re-decode.
//
// Divergences from a libvips pipeline, recorded here:
//   - Go has no WebP encoder, so every WebP candidate is replaced by PNG or
//     JPEG: low-colour opaque sources try a palette PNG, then JPEG q85,
//     q80, q75; sources with alpha try a truecolour RGBA PNG, then a
//     256-colour median-cut palette PNG with transparency; opaque photos try
//     JPEG q85, q80, q75. Transparency is never flattened; alpha sources
//     shrink further under the byte cap than with WebP.
//   - A PNG output of a source that declares alpha always carries alpha,
//     even when every pixel is opaque (no compatibility exception needed).
//   - ICC profiles are stripped and the pixels are taken as sRGB (no colour
//     management: Display-P3 or Adobe RGB sources shift); CMYK JPEG uses the
//     naive conversion; 16-bit samples keep their high byte.
//   - Palette quantization maps to the nearest entry without dithering.
//   - Animated WebP: x/image/webp decodes only stills, so the first ANMF
//     frame is rewrapped as a still WebP (with a VP8X of the frame's size,
//     so a bitstream claiming a larger raster is refused from its header),
//     decoded and drawn at its offset on a transparent canvas (later
//     frames are never decoded); its alpha expectation is "unknown", like
//     GIF. An APNG (acTL) is converted from
//     its default image. Arithmetic-coded and 12-bit JPEG are INVALID_IMAGE.
//   - Output bytes differ from libvips; ids of converted images depend on
//     the Go version's encoders (compress/flate, image/jpeg).
//   - mkdir/chmod failures while proving the home durable are wrapped as
//     ATTACHMENT_WRITE_FAILED, never shown with host paths.
//
// Publication (docs/attachments.md "Storage"): the home is proven durable
// once per process (created and chmodded 0700, every ancestor fsynced up to
// "/"); each commit creates and fsyncs the bucket and staging chains, writes
// tmp/<uuid> (exclusive, 0600, fsync), hard-links it to objects/<h[0:2]>/<h>
// (an existing object must hash to h), fsyncs the bucket and objects
// directories, and unlinks the staging file. No partial object is ever
// visible; concurrent admissions of one image are safe.
//
// Reads (docs/attachments.md "Storage") re-hash the object and re-derive
// header facts (never pixels, never current admission limits). A read keeps
// at most the bytes the ref claims: a larger object is only hashed
// (ATTACHMENT_CORRUPT either way), and an object file over 2 GiB is not read
// at all (ATTACHMENT_READ_FAILED, as Node's readFile refuses it in the
// reference), so a corrupted or replaced object never makes a read buffer it.
// ReadImageRequest is not implemented (request-image variants are out of
// scope): it fails with ATTACHMENT_PROJECTION_UNSUPPORTED.
//
// Mount: the plugin sweeps crash residue older than the process start from
// tmp/ and request-images/*/*.tmp (docs/attachments.md "Storage"), logs at
// debug, never fails the mount for it, and provides attachments.Service.
//
// Eviction: the objects are
// kept within maxStoreBytes (default 1 GiB) by deleting the least recently
// used (a verified read or a save uses an object and sets its mtime) that
// no read, save or batch in progress has pinned. An in-memory index, built
// once from one walk of objects/, makes a save's eviction cost independent
// of the number of objects; each deletion is a single unlink.
//
// Cancellation: a done context makes every method return context.Cause(ctx)
// unchanged.
package local
