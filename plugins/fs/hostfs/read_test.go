package hostfs_test

import (
	"context"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fs/hostfs"
)

// textCases are shared by ReadText and StreamText: both must agree.
var textCases = []struct {
	name    string
	content string
	want    string // when err is empty
	code    fs.Code
	errText string // message suffix after `cannot read "<p>": `
}{
	{name: "empty", content: "", want: ""},
	{name: "plain", content: "a\nb\n", want: "a\nb\n"},
	{name: "crlf kept", content: "a\r\nb\r\n", want: "a\r\nb\r\n"},
	{name: "lone cr kept", content: "a\rb", want: "a\rb"},
	{name: "bom consumed", content: "\xEF\xBB\xBFhi", want: "hi"},
	{name: "only bom", content: "\xEF\xBB\xBF", want: ""},
	{name: "second bom kept", content: "\xEF\xBB\xBF\xEF\xBB\xBFx", want: "\uFEFFx"},
	{name: "multibyte", content: "héllo 世界 🎉", want: "héllo 世界 🎉"},
	{name: "nul early", content: "ab\x00cd", code: fs.CodeNotText, errText: "binary file"},
	{name: "nul at byte 8191", content: strings.Repeat("a", 8191) + "\x00", code: fs.CodeNotText, errText: "binary file"},
	{name: "late nul reads fine", content: strings.Repeat("a", 8192) + "\x00z", want: strings.Repeat("a", 8192) + "\x00z"},
	{name: "invalid utf8", content: "ok \xff bad", code: fs.CodeNotText, errText: "invalid UTF-8 text"},
	{name: "truncated sequence at eof", content: "ok \xe4\xb8", code: fs.CodeNotText, errText: "invalid UTF-8 text"},
	{name: "surrogate", content: "\xed\xa0\x80", code: fs.CodeNotText, errText: "invalid UTF-8 text"},
	{name: "overlong", content: "\xc0\xaf", code: fs.CodeNotText, errText: "invalid UTF-8 text"},
	{name: "binary wins over invalid", content: "\xff\xfd" + strings.Repeat("x", 8000) + "\x00", code: fs.CodeNotText, errText: "binary file"},
	{name: "late invalid after large valid", content: strings.Repeat("é", 100_000) + "\xff", code: fs.CodeNotText, errText: "invalid UTF-8 text"},
}

func TestReadTextAndStreamTextAgree(t *testing.T) {
	p, dir := newProvider(t)
	for _, c := range textCases {
		t.Run(c.name, func(t *testing.T) {
			path := dir + "/" + strings.ReplaceAll(c.name, " ", "_")
			writeFile(t, path, c.content)
			tg := resolve(t, p, path)
			read, err := p.ReadText(context.Background(), tg)
			streamed, serr := streamAll(t, p, context.Background(), tg)
			lent, lerr := streamBytesAll(t, p, context.Background(), tg)
			if c.code != "" {
				msg := `cannot read "` + path + `": ` + c.errText
				requireFsError(t, err, c.code, msg)
				requireFsError(t, serr, c.code, msg)
				requireFsError(t, lerr, c.code, msg)
				return
			}
			require.NoError(t, err)
			require.NoError(t, serr)
			require.NoError(t, lerr)
			assert.Equal(t, fs.ReadOutcome{Text: c.want}, read, "UTF-8: no charset named")
			assert.Equal(t, c.want, streamed)
			assert.Equal(t, c.want, lent)
		})
	}
}

func TestReadPreflight(t *testing.T) {
	p, dir := newProvider(t)
	require.NoError(t, os.Mkdir(dir+"/d", 0o755))
	require.NoError(t, unix.Mkfifo(dir+"/fifo", 0o644))
	writeFile(t, dir+"/f", "x")

	type reader func(ctx context.Context, tg fs.Target) error
	readers := map[string]reader{
		"ReadText": func(ctx context.Context, tg fs.Target) error { _, err := p.ReadText(ctx, tg); return err },
		"StreamText": func(ctx context.Context, tg fs.Target) error {
			_, err := p.StreamText(ctx, tg)
			return err
		},
		"ReadBytes": func(ctx context.Context, tg fs.Target) error { _, err := p.ReadBytes(ctx, tg, 100); return err },
	}
	for name, read := range readers {
		t.Run(name, func(t *testing.T) {
			err := read(context.Background(), resolve(t, p, "missing"))
			requireFsError(t, err, fs.CodeNotFound, `cannot read "`+dir+`/missing": not found`)
			err = read(context.Background(), resolve(t, p, "d"))
			requireFsError(t, err, fs.CodeNotRegularFile, `cannot read "`+dir+`/d": not a regular file`)
			err = read(context.Background(), resolve(t, p, "fifo"))
			requireFsError(t, err, fs.CodeNotRegularFile, `cannot read "`+dir+`/fifo": not a regular file`)
			err = read(cancelled(), resolve(t, p, "f"))
			requireFsError(t, err, fs.CodeAborted, "read aborted")
		})
	}
}

func TestReadThroughSymlinkAndExternalModification(t *testing.T) {
	p, dir := newProvider(t)
	writeFile(t, dir+"/real.txt", "one")
	require.NoError(t, os.Symlink("real.txt", dir+"/link.txt"))
	tg := resolve(t, p, "link.txt")
	v1, err := p.Stat(context.Background(), tg)
	require.NoError(t, err)
	read, err := p.ReadText(context.Background(), tg)
	require.NoError(t, err)
	assert.Equal(t, fs.ReadOutcome{Text: "one"}, read)

	writeFile(t, dir+"/real.txt", "two!")
	read, err = p.ReadText(context.Background(), tg)
	require.NoError(t, err)
	assert.Equal(t, "two!", read.Text, "reads see the current content")
	v2, err := p.Stat(context.Background(), tg)
	require.NoError(t, err)
	assert.NotEqual(t, v1.Version, v2.Version)
}

func TestStreamTextLargeMultiChunk(t *testing.T) {
	p, dir := newProvider(t)
	// ~1 MiB of mixed-width text so that sequences straddle 64 KiB chunk edges.
	unit := "line é 世 🎉\r\n"
	content := "\xEF\xBB\xBF" + strings.Repeat(unit, 1<<20/len(unit))
	writeFile(t, dir+"/big.txt", content)
	tg := resolve(t, p, "big.txt")
	seq, err := p.StreamText(context.Background(), tg)
	require.NoError(t, err)
	var b strings.Builder
	chunks := 0
	for chunk, err := range seq {
		require.NoError(t, err)
		chunks++
		b.WriteString(chunk)
	}
	assert.Greater(t, chunks, 10)
	assert.Equal(t, content[3:], b.String())
	lent, err := streamBytesAll(t, p, context.Background(), tg)
	require.NoError(t, err)
	assert.Equal(t, content[3:], lent, "lent 1 MiB chunks decode the same text")
}

func TestStreamTextBreakAndCancelBetweenChunks(t *testing.T) {
	p, dir := newProvider(t)
	writeFile(t, dir+"/big.txt", strings.Repeat("x", 1<<20))
	tg := resolve(t, p, "big.txt")

	seq, err := p.StreamText(context.Background(), tg)
	require.NoError(t, err)
	for range seq {
		break // must release the file without panicking
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	seq, err = p.StreamText(ctx, tg)
	require.NoError(t, err)
	n := 0
	var last error
	for _, err := range seq {
		if err != nil {
			last = err
			break
		}
		n++
		cancel()
	}
	assert.Equal(t, 1, n)
	requireFsError(t, last, fs.CodeAborted, "read aborted")
}

func TestStreamTextFileVanishesBeforeRange(t *testing.T) {
	p, dir := newProvider(t)
	writeFile(t, dir+"/f.txt", "x")
	tg := resolve(t, p, "f.txt")
	seq, err := p.StreamText(context.Background(), tg)
	require.NoError(t, err)
	require.NoError(t, os.Remove(dir+"/f.txt"))
	for _, err := range seq {
		requireFsError(t, err, fs.CodeNotFound, `cannot read "`+dir+`/f.txt": not found`)
	}
}

func TestReadBytes(t *testing.T) {
	p, dir := newProvider(t)
	data := "\x00\x01binary\xff"
	writeFile(t, dir+"/b.bin", data)
	tg := resolve(t, p, "b.bin")

	got, err := p.ReadBytes(context.Background(), tg, int64(len(data)))
	require.NoError(t, err, "exactly maxBytes is allowed")
	assert.Equal(t, []byte(data), got, "no decoding, NULs allowed")

	_, err = p.ReadBytes(context.Background(), tg, int64(len(data)-1))
	requireFsError(t, err, fs.CodeTooLarge, `cannot read "`+dir+`/b.bin": 9 bytes exceeds the 8-byte limit`)

	got, err = p.ReadBytes(context.Background(), resolve(t, p, func() string { writeFile(t, dir+"/e", ""); return "e" }()), 0)
	require.NoError(t, err)
	assert.Empty(t, got)
}

func TestReadBytesGrowthAfterStat(t *testing.T) {
	p, dir := newProvider(t)
	writeFile(t, dir+"/g.bin", "12345")
	tg := resolve(t, p, "g.bin")
	hostfs.SetAfterPreflight(p, func(fs.Target) {
		f, err := os.OpenFile(dir+"/g.bin", os.O_APPEND|os.O_WRONLY, 0)
		require.NoError(t, err)
		_, err = io.WriteString(f, strings.Repeat("z", 1<<20))
		require.NoError(t, err)
		require.NoError(t, f.Close())
	})
	_, err := p.ReadBytes(context.Background(), tg, 10)
	requireFsError(t, err, fs.CodeTooLarge, `cannot read "`+dir+`/g.bin": content exceeds the 10-byte limit`)
}
