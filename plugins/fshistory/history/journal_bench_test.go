package history_test

import (
	"testing"
	"time"

	"github.com/cordon-dev/cordon/plugins/fshistory/history"
)

// BenchmarkJournaledChange is what the store costs one change while this process holds it: the
// pending record with a 4 KiB inline content (its digest known, as an edit hands it over), then
// its completion; the journal's folds are amortized over the changes.
func BenchmarkJournaledChange(b *testing.B) {
	st, err := history.Open(b.TempDir(), roomy, 5*time.Second)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	data := make([]byte, 4<<10)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		data[0] = byte(i) // a new content each time, as successive edits make
		r, err := st.Add(history.Record{Time: time.Now(), Path: "/w/f", Display: "f", Key: "/w/f", Verb: "edit", Existed: true,
			Pending: true, PID: 1, AfterDigest: "x", Size: int64(len(data))}, history.Known(append([]byte(nil), data...), ""))
		if err != nil {
			b.Fatal(err)
		}
		if err := st.Complete(r.ID, "v", false); err != nil {
			b.Fatal(err)
		}
	}
}
