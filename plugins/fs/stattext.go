package fs

import "context"

// StatText describes t and reads it whole when it is a regular file of fewer than below bytes, as
// StatReader.StatText does: through fsys's StatText when fsys is a StatReader, else with Stat and
// then ReadText. A caller that holds at most below bytes of a file uses it instead of ReadText,
// whose read has no bound.
//
//	info, read, err := fs.StatText(ctx, fsys, target, maxBytes+1)
//	if info != nil && info.Type == fs.TypeFile && read == nil && err == nil {
//		// too large: take it as a stream, or refuse it
//	}
func StatText(ctx context.Context, fsys FileSystem, t Target, below int64) (*Info, *ReadOutcome, error) {
	if sr, ok := fsys.(StatReader); ok {
		return sr.StatText(ctx, t, below)
	}
	info, err := fsys.Stat(ctx, t)
	if err != nil || info == nil || info.Type != TypeFile || !info.HasSize || info.Size >= below {
		return info, nil, err
	}
	read, err := fsys.ReadText(ctx, t)
	if err != nil {
		return info, nil, err
	}
	return info, &read, nil
}
