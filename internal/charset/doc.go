// Package charset decides which charset a text file is stored in and converts between its bytes
// and UTF-8 text, refusing anything that does not survive the trip (docs/encodings.md).
//
// Where the charset comes from, in order: a byte order mark (UTF-8, UTF-16LE, UTF-16BE) decides
// by itself; then the provider's `encodings` rules (first match wins); then the `charset` of
// .editorconfig; then UTF-8.
//
// Every charset here is stateless: encoding a text is the concatenation of encoding its
// characters. With the round-trip check (decoding then encoding gives back exactly the file's
// bytes) that is what keeps every byte outside an edit: re-encoding the edited text reproduces
// the untouched parts byte for byte.
package charset
