package hostfs

import (
	"bytes"
	"context"
	"errors"
	"io"

	"golang.org/x/sys/unix"

	"github.com/cordon-dev/cordon/internal/charset"
	"github.com/cordon-dev/cordon/internal/search"
	"github.com/cordon-dev/cordon/internal/textedit"
	"github.com/cordon-dev/cordon/plugins/fs"
)

// fileText is how a file's text is stored (docs/encodings.md): its charset and the byte order
// mark in front of it. The zero value is UTF-8 without a mark other than textedit's.
type fileText struct {
	decl charset.Decl
	bom  []byte // the file's own mark, when its charset is not UTF-8
	// For an edit of a file in another charset: its bytes after the mark and its decoded text
	// with the marks that map offsets back to them.
	raw  []byte
	text charset.Text
}

// other reports whether the text is in a charset other than UTF-8 (decoded and encoded here;
// UTF-8 keeps the byte paths of read.go, stream.go and textedit).
func (ft fileText) other() bool { return !ft.decl.Charset.IsUTF8() }

// textOf decides the charset of the file at key from its first bytes head (under a read
// confinement, from no .editorconfig above its root: readRoot).
func (p *Provider) textOf(ctx context.Context, key string, head []byte) fileText {
	d, n := p.charsets.ResolveBeneath(readRoot(ctx), key, head)
	return fileText{decl: d, bom: bytes.Clone(head[:n])}
}

// textOfFile is textOf for an open file, read at offset 0 without moving its offset.
func (p *Provider) textOfFile(ctx context.Context, key string, f io.ReaderAt) fileText {
	var head [3]byte
	n, _ := f.ReadAt(head[:], 0)
	return p.textOf(ctx, key, head[:n])
}

// decode returns the UTF-8 text of a whole file buf in ft's (non-UTF-8) charset for verb:
// FS_NOT_TEXT `cannot <verb> "<p>": not <charset> text (byte <n> does not round-trip)` when it
// does not round-trip, `binary file` when its text has a NUL (read: in the first 8192 bytes of
// the text; edit and write: anywhere).
func (ft fileText) decode(buf []byte, verb, display string) ([]byte, error) {
	text, err := charset.Decode(ft.decl.Charset, buf[len(ft.bom):])
	if err != nil {
		return nil, ft.notText(err, verb, display)
	}
	sample := text
	if verb == fs.VerbRead {
		sample = text[:min(len(text), binarySampleBytes)]
	}
	if bytes.IndexByte(sample, 0) >= 0 {
		return nil, fs.NewError(fs.CodeNotText, "cannot "+verb+` "`+display+`": binary file`, nil)
	}
	return text, nil
}

// notText is FS_NOT_TEXT `cannot <verb> "<p>": not <charset> text (byte <n> does not
// round-trip)` for a *charset.NotTextError, n counted in the file (its mark included).
func (ft fileText) notText(err error, verb, display string) error {
	nt, ok := errors.AsType[*charset.NotTextError](err)
	if !ok {
		return err
	}
	nt.Offset += int64(len(ft.bom))
	return fs.NewError(fs.CodeNotText, "cannot "+verb+` "`+display+`": `+nt.Error(), nil)
}

// encode returns text in ft's charset after its mark: all of text is checked (check) or only
// known to round-trip already. A character the charset cannot encode is FS_NOT_TEXT
// `cannot <verb> "<p>": U+XXXX 'c' cannot be encoded in <charset>`.
func (ft fileText) encode(text string, check bool, verb, display string) (string, error) {
	enc := charset.EncodeKnown
	if check {
		enc = charset.Encode
	}
	b, err := enc(ft.decl.Charset, text)
	if err != nil {
		return "", unencodable(err, verb, display)
	}
	if len(ft.bom) > 0 {
		b = append(bytes.Clone(ft.bom), b...)
	}
	return string(b), nil
}

func unencodable(err error, verb, display string) error {
	return fs.NewError(fs.CodeNotText, "cannot "+verb+` "`+display+`": `+err.Error(), nil)
}

// decodeRead applies ReadText's text rules to the whole file buf in its charset, and names that
// charset ("" for UTF-8).
func (p *Provider) decodeRead(ctx context.Context, key string, buf []byte, display string) ([]byte, string, error) {
	if ft := p.textOf(ctx, key, buf); ft.other() {
		if size := int64(len(buf)); size > p.maxFileBytes { // as streamOther: decoded whole
			return nil, "", fs.ReadTooLarge(display, size, p.maxFileBytes)
		}
		text, err := ft.decode(buf, fs.VerbRead, display)
		if err != nil {
			return nil, "", err
		}
		return text, ft.decl.Charset.Name(), nil
	}
	text, err := decodeWhole(buf, display)
	return text, "", err
}

// streamOther streams a file in a charset other than UTF-8: it is read whole (at most
// maxFileBytes: FS_TOO_LARGE beyond), round-trip checked and handed out as one chunk.
func (p *Provider) streamOther(ctx context.Context, f *regularFile, ft fileText, display string, yield func([]byte, error) bool) {
	if f.st.Size > p.maxFileBytes {
		yield(nil, fs.ReadTooLarge(display, f.st.Size, p.maxFileBytes))
		return
	}
	buf, err := readAll(ctx, f, f.st.Size, p.maxFileBytes+1)
	if err == nil && int64(len(buf)) > p.maxFileBytes {
		err = fs.ReadContentTooLarge(display, p.maxFileBytes)
	}
	var text []byte
	if err == nil {
		text, err = ft.decode(buf, fs.VerbRead, display)
	}
	if err != nil {
		yield(nil, fs.FromOS(fs.VerbRead, display, err))
		return
	}
	if len(text) > 0 {
		yield(text, nil)
	}
}

// docForEdit is decodeForEdit in the file's charset: a file in another charset is decoded (and
// round-trip checked) first, and its edit document is its UTF-8 text.
func (p *Provider) docForEdit(ctx context.Context, key string, raw []byte, display string) (fileText, textedit.Doc, error) {
	ft := p.textOf(ctx, key, raw)
	if !ft.other() {
		doc, err := decodeForEdit(raw, display)
		return ft, doc, err
	}
	ti, err := charset.DecodeIndexed(ft.decl.Charset, raw[len(ft.bom):])
	if err != nil {
		return ft, textedit.Doc{}, ft.notText(err, fs.VerbEdit, display)
	}
	if bytes.IndexByte(ti.UTF8, 0) >= 0 {
		return ft, textedit.Doc{}, fs.EditBinary(display)
	}
	ft.raw, ft.text = raw[len(ft.bom):], ti
	s := textedit.OwnedString(ti.UTF8)
	return ft, textedit.Doc{Raw: s, Content: textedit.NormalizeLF(s), Endings: textedit.DetectLineEndings(s)}, nil
}

// storeEdit is the stored form of an edit whose UTF-8 text is body: body itself for UTF-8; for
// another charset, once the new text is known to be encodable, the file's bytes with only the
// replaced spans re-encoded (each span's offsets mapped back to byte offsets through ft.text),
// after its mark. A result over maxBytes is FS_TOO_LARGE.
func (ft fileText) storeEdit(e textedit.Edit, body, newText string, maxBytes int64, display string) (string, error) {
	if !ft.other() {
		return body, nil
	}
	cs := ft.decl.Charset
	if _, err := charset.Encode(cs, newText); err != nil {
		return "", unencodable(err, fs.VerbEdit, display)
	}
	out := make([]byte, 0, len(ft.bom)+len(ft.raw)+len(newText))
	out = append(out, ft.bom...)
	last := 0
	var err error
	e.Spans(func(rs, re int, text string) {
		var b []byte
		if b, err = charset.EncodeKnown(cs, text); err != nil {
			return
		}
		rawStart := ft.text.RawOffset(rs)
		out = append(append(out, ft.raw[last:rawStart]...), b...)
		last = ft.text.RawOffset(re)
	})
	if err != nil {
		return "", unencodable(err, fs.VerbEdit, display)
	}
	out = append(out, ft.raw[last:]...)
	if size := int64(len(out)); size > maxBytes {
		return "", fs.EditResultTooLarge(display, size, maxBytes)
	}
	return textedit.OwnedString(out), nil
}

// textForWrite decides the charset a write over the existing file key publishes in: its own.
// A file in another charset is read whole (at most maxFileBytes) and must round-trip
// (FS_NOT_TEXT otherwise); prior is then its decoded text as the diff basis (when wantBasis and
// below the bound), else nil (readPrior's job).
func (p *Provider) textForWrite(ctx context.Context, key string, wantBasis bool, display string) (fileText, *priorFile, error) {
	f, err := openKey(ctx, key, unix.O_NONBLOCK)
	if err != nil {
		return fileText{}, nil, nil // readPrior declines the basis
	}
	defer f.Close()
	ft := p.textOfFile(ctx, key, f)
	if !ft.other() {
		return ft, nil, nil
	}
	fi, err := f.Stat()
	if err != nil {
		return ft, nil, err
	}
	if fi.Size() > p.maxFileBytes {
		return ft, nil, fs.WriteTooLarge(display, fi.Size(), p.maxFileBytes)
	}
	raw, err := readAll(ctx, f, fi.Size(), p.maxFileBytes+1)
	if err != nil {
		return ft, nil, err
	}
	if int64(len(raw)) > p.maxFileBytes {
		return ft, nil, fs.WriteTooLarge(display, int64(len(raw)), p.maxFileBytes)
	}
	text, err := ft.decode(raw, fs.VerbWrite, display)
	if err != nil {
		return ft, nil, err
	}
	prior := &priorFile{}
	if wantBasis && int64(len(text)) < p.diffBasisMaxBytes {
		s := textedit.NormalizeLF(textedit.OwnedString(text))
		prior.basis = &s
	}
	return ft, prior, nil
}

// storeWrite is the stored form of a write's content: itself for UTF-8, else the content in
// the charset (checked: FS_NOT_TEXT naming the first character it cannot encode) after the
// file's mark (which replaces a leading U+FEFF of the content).
func (ft fileText) storeWrite(content, display string) (string, error) {
	if !ft.other() {
		return content, nil
	}
	if len(ft.bom) > 0 {
		content = textedit.TrimBOM(content) // the file's own mark stands for it
	}
	return ft.encode(content, true, fs.VerbWrite, display)
}

// TextCharset names the charset StreamText decodes t from when it is not UTF-8 ("" for UTF-8,
// and for a file that cannot be opened: the read itself reports that). ReadText names it in its
// outcome; this is for a reader that streams and must know it before the first chunk.
func (p *Provider) TextCharset(ctx context.Context, t fs.Target) string {
	f, err := openRegular(ctx, t)
	if err != nil {
		return ""
	}
	defer f.Close()
	if ft := p.textOfFile(ctx, string(t.Key), f); ft.other() {
		return ft.decl.Charset.Name()
	}
	return ""
}

// grepDecoder is the search.Decoder of one grep: a file in a charset other than UTF-8 (a UTF-16
// BOM, a declared charset) is read whole (at most maxFileBytes) and matched as its decoded
// text; one that does not round-trip (or is larger) is skipped. .editorconfig files are read
// once for the whole search, and under a read confinement only beneath its root.
func (p *Provider) grepDecoder(ctx context.Context) search.Decoder {
	s := p.charsets.SessionBeneath(readRoot(ctx))
	return func(abs string, fd int, head []byte) ([]byte, bool, error) {
		d, bomLen := s.Resolve(abs, head)
		if d.Charset.IsUTF8() {
			return nil, false, nil
		}
		ft := fileText{decl: d, bom: bytes.Clone(head[:bomLen])}
		var st unix.Stat_t
		if err := unix.Fstat(fd, &st); err != nil {
			return nil, false, err
		}
		if st.Size > p.maxFileBytes {
			return nil, false, fs.ReadTooLarge(abs, st.Size, p.maxFileBytes)
		}
		buf := make([]byte, st.Size)
		m := 0
		for m < len(buf) {
			k, err := unix.Pread(fd, buf[m:], int64(m))
			if err == unix.EINTR {
				continue
			}
			if err != nil {
				return nil, false, err
			}
			if k == 0 {
				break
			}
			m += k
		}
		text, err := ft.decode(buf[:m], fs.VerbRead, abs)
		return text, err == nil, err
	}
}
