// Package textedit holds the pure text rules of the host filesystem provider's
// mutations: leading UTF-8 BOM handling, CRLF detection and normalization,
// and the literal (non-regex) edit algorithm, which matches on the
// LF-normalized text and splices the file's own bytes, so nothing outside the
// replaced spans changes.
//
// Nothing here touches the filesystem. Failures are reported as Failure values
// so the caller can attach its own display path and error codes.
package textedit
