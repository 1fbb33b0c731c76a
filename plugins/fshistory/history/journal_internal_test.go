package history

import (
	"bytes"
	"os"
	"testing"
	"time"
)

// FuzzParseFrames: any bytes parse without a panic into whole frames; frames written by
// appendFrame parse back as written, up to a torn end.
func FuzzParseFrames(f *testing.F) {
	e := journaled{DB: "id", Done: []completion{{seq: 1, versionAfter: "v1"}}, Seq: 2,
		Record: Record{ID: "c2", Time: time.Unix(1, 0).UTC(), Path: "/w/f", Key: "/w/f", Verb: "write", Kept: true, Size: 3}, data: []byte("abc")}
	frame, err := appendFrame(nil, &e)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(frame, 0)
	f.Add(append(frame, frame...), 5)
	f.Add([]byte{1, 0, 0, 0, 0, 0, 0, 0, '{', 0, 0, 0, 0}, 0)
	f.Fuzz(func(t *testing.T, b []byte, cut int) {
		for _, e := range parseFrames(b) {
			if e.Seq == 0 || len(e.data) > InlineMaxBytes {
				t.Fatalf("a frame of sequence %d with %d bytes of content", e.Seq, len(e.data))
			}
		}
		// Whole frames of b's content, then a torn copy of one: the whole ones come back.
		var w []byte
		n := 0
		for i := 0; i < 3; i++ {
			e := journaled{DB: "id", Seq: uint64(i + 1), Record: Record{Path: string(b)}, data: b[:min(len(b), InlineMaxBytes)]}
			if w, err = appendFrame(w, &e); err != nil {
				t.Fatal(err)
			}
			n++
		}
		whole := len(w)
		if w, err = appendFrame(w, &journaled{DB: "id", Seq: 4}); err != nil {
			t.Fatal(err)
		}
		w = w[:whole+max(0, min(cut, len(w)-whole-1))]
		got := parseFrames(w)
		if len(got) != n {
			t.Fatalf("%d frames back of %d whole ones", len(got), n)
		}
		for i, e := range got {
			if e.Seq != uint64(i+1) || !bytes.Equal(e.data, b[:min(len(b), InlineMaxBytes)]) {
				t.Fatalf("frame %d came back as sequence %d with other content", i, e.Seq)
			}
		}
	})
}

// TestWriteFrameWritesTheFrameAppendFrameBuilds: the frame journalAdd writes from its parts (the
// content not copied) is byte for byte appendFrame's, at the offset given.
func TestWriteFrameWritesTheFrameAppendFrameBuilds(t *testing.T) {
	e := journaled{DB: "id", Seq: 7, Record: Record{ID: "c7", Path: "/w/f", Verb: "edit", Kept: true, Size: 5}, data: []byte("hello")}
	want, err := appendFrame([]byte("prefix"), &e)
	if err != nil {
		t.Fatal(err)
	}
	head, sum, err := frameParts(&e)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.CreateTemp(t.TempDir(), "journal")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString("prefix"); err != nil {
		t.Fatal(err)
	}
	n, err := writeFrame(f, 6, head, e.data, sum[:])
	if err != nil || n != int64(len(want)-6) {
		t.Fatalf("writeFrame: %d bytes, %v; want %d", n, err, len(want)-6)
	}
	got, err := os.ReadFile(f.Name())
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("the journal holds %q (%v), want %q", got, err, want)
	}
	if frames := parseFrames(got[6:]); len(frames) != 1 || frames[0].Seq != 7 || string(frames[0].data) != "hello" {
		t.Fatalf("parsed back as %+v", frames)
	}
}
