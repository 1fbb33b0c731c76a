package charset

import (
	"bytes"
	"fmt"
	"sort"
	"unicode/utf8"
)

// NotTextError refuses bytes that are not text in a charset: decoding then encoding them does
// not give them back, first at Offset (counted in the bytes given to Decode).
type NotTextError struct {
	Charset Charset
	Offset  int64
}

func (e *NotTextError) Error() string {
	return fmt.Sprintf("not %s text (byte %d does not round-trip)", e.Charset.Name(), e.Offset)
}

// UnencodableError refuses new text with a character the charset cannot encode (or would not
// decode back to the same character).
type UnencodableError struct {
	Charset Charset
	Rune    rune
}

func (e *UnencodableError) Error() string {
	return fmt.Sprintf("%U %q cannot be encoded in %s", e.Rune, e.Rune, e.Charset.Name())
}

// Decode returns raw (without its byte order mark) as UTF-8 text, or a *NotTextError when it
// does not round-trip. c must not be UTF-8.
func Decode(c Charset, raw []byte) ([]byte, error) {
	t, err := DecodeIndexed(c, raw)
	return t.UTF8, err
}

// markEvery is the spacing, in bytes of decoded text, of Text's offset marks.
const markEvery = 32 << 10

// Text is a file's decoded text with marks pairing its offsets with those of the bytes it came
// from, so that an offset of the text maps back to its byte offset without re-encoding more than
// markEvery bytes (RawOffset).
type Text struct {
	UTF8  []byte
	c     Charset
	marks []mark // ascending; marks[0] is {0, 0}
}

type mark struct{ text, raw int }

// DecodeIndexed is Decode keeping the offset marks. The round trip is checked mark by mark:
// each stretch of text encodes back to exactly its own bytes.
func DecodeIndexed(c Charset, raw []byte) (Text, error) {
	text, err := c.enc.NewDecoder().Bytes(raw)
	if err != nil {
		return Text{}, &NotTextError{Charset: c, Offset: firstLoss(c, raw, text)}
	}
	t := Text{UTF8: text, c: c, marks: make([]mark, 0, len(text)/markEvery+1)}
	enc := c.enc.NewEncoder()
	var buf []byte
	at, rawAt := 0, 0
	for {
		t.marks = append(t.marks, mark{at, rawAt})
		if at == len(text) {
			break
		}
		end := min(at+markEvery, len(text))
		for end < len(text) && !utf8.RuneStart(text[end]) {
			end--
		}
		buf, err = enc.Bytes(text[at:end])
		if err != nil || !bytes.HasPrefix(raw[rawAt:], buf) {
			return Text{}, &NotTextError{Charset: c, Offset: firstLoss(c, raw, text)}
		}
		at, rawAt = end, rawAt+len(buf)
	}
	if rawAt != len(raw) {
		return Text{}, &NotTextError{Charset: c, Offset: firstLoss(c, raw, text)}
	}
	return t, nil
}

// RawOffset is the byte offset of the text's offset k (a character boundary): the nearest mark
// at or before k, plus the length of the text between them encoded.
func (t Text) RawOffset(k int) int {
	i := sort.Search(len(t.marks), func(i int) bool { return t.marks[i].text > k }) - 1
	m := t.marks[i]
	if m.text == k {
		return m.raw
	}
	b, _ := t.c.enc.NewEncoder().Bytes(t.UTF8[m.text:k]) // it encoded when checked
	return m.raw + len(b)
}

// firstLoss is the offset of the first byte of raw that does not survive the trip: text (its
// decoding, possibly partial) is re-encoded one character at a time against raw.
func firstLoss(c Charset, raw, text []byte) int64 {
	enc := c.enc.NewEncoder()
	pos := 0
	for len(text) > 0 {
		r, n := utf8.DecodeRune(text)
		b, err := enc.Bytes(text[:n])
		text = text[n:]
		if err != nil || r == utf8.RuneError && n == 1 {
			return int64(min(pos, max(len(raw)-1, 0)))
		}
		if !bytes.HasPrefix(raw[pos:], b) {
			i := 0
			for i < len(b) && pos+i < len(raw) && raw[pos+i] == b[i] {
				i++
			}
			return int64(min(pos+i, max(len(raw)-1, 0)))
		}
		pos += len(b)
	}
	return int64(min(pos, max(len(raw)-1, 0)))
}

// Encode returns text in charset c, or an *UnencodableError naming the first character that c
// cannot encode or that would not decode back to itself. c must not be UTF-8.
func Encode(c Charset, text string) ([]byte, error) {
	b, err := c.enc.NewEncoder().String(text)
	if err == nil {
		back, err := c.enc.NewDecoder().String(b)
		if err == nil && back == text {
			return []byte(b), nil
		}
	}
	return nil, unencodable(c, text)
}

// EncodeKnown is Encode for text whose every character is known to round-trip (the decoded text
// of a file that passed Decode, spliced with text that passed Encode): it skips the check.
func EncodeKnown(c Charset, text string) ([]byte, error) {
	b, err := c.enc.NewEncoder().String(text)
	if err != nil {
		return nil, unencodable(c, text)
	}
	return []byte(b), nil
}

// unencodable finds the first character of text that does not survive c.
func unencodable(c Charset, text string) error {
	enc, dec := c.enc.NewEncoder(), c.enc.NewDecoder()
	for _, r := range text {
		s := string(r)
		b, err := enc.String(s)
		if err != nil {
			return &UnencodableError{Charset: c, Rune: r}
		}
		if back, err := dec.String(b); err != nil || back != s {
			return &UnencodableError{Charset: c, Rune: r}
		}
	}
	// Every character survives alone: only a stateful charset could get here.
	return &UnencodableError{Charset: c, Rune: utf8.RuneError}
}
