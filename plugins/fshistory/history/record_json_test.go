package history

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
)

// FuzzRecordJSON: marshalRecord and marshalJournaled write what json.Marshal writes, byte for
// byte (the stored form List matches against), for any field values; a time json.Marshal refuses
// is refused the same way.
func FuzzRecordJSON(f *testing.F) {
	f.Add("c1", int64(1700000000), int64(5), "/w", "/w/a.go", "a.go", "s1", "edit", "x<&>\u2028\xff", uint32(0o644), int64(3), true, true, "", int64(0), 1, "a\x00b")
	f.Add("", int64(-70000000000), int64(0), "", "", "", "", "", "", uint32(0), int64(-1), false, false, "c3", int64(999), 0, "")
	f.Add("c9", int64(253402300800), int64(999999999), "ws", "p", "d", "", "", "", uint32(7), int64(0), false, true, "", int64(-5), 2, "")
	f.Fuzz(func(t *testing.T, id string, sec, nsec int64, ws, path, display, session, tool, text string, mode uint32, size int64, kept, pending bool, undoes string, pid int64, dirs int, group string) {
		r := Record{ID: id, Time: time.Unix(sec, nsec).In(time.FixedZone("z", int(nsec%100000))), Workspace: ws, Path: path, Display: display,
			Key: path + text, Session: session, Tool: tool, Verb: text, Existed: kept != pending, Mode: mode, Size: size,
			Digest: text, Kept: kept, VersionBefore: session, VersionAfter: text, Undoes: undoes, UndoneBy: tool,
			Pending: pending, AfterDigest: display, PID: int(pid), Interrupted: pending && kept, Group: group}
		for i := range dirs % 4 {
			r.MadeDirs = append(r.MadeDirs, strings.Repeat(text, i+1))
		}
		if dirs%5 == 4 {
			r.MadeDirs = []string{}
		}
		same(t, "record", func() ([]byte, error) { return json.Marshal(&r) }, func() ([]byte, error) { return marshalRecord(&r) })
		e := journaled{DB: id, Seq: uint64(size), Record: r}
		for i := range dirs % 3 {
			e.Done = append(e.Done, completion{seq: uint64(i) + uint64(pid), versionAfter: text, interrupted: i%2 == 1})
		}
		same(t, "frame", func() ([]byte, error) { return json.Marshal(&e) }, func() ([]byte, error) { return marshalJournaled(&e) })
	})
}

func same(t *testing.T, what string, std, ours func() ([]byte, error)) {
	t.Helper()
	want, werr := std()
	got, gerr := ours()
	if (werr != nil) != (gerr != nil) || string(got) != string(want) {
		t.Fatalf("%s: %s (%v), json.Marshal: %s (%v)", what, got, gerr, want, werr)
	}
}

// BenchmarkRecordJSON is a change's record (and its journal frame) written with json.Marshal and
// by hand.
func BenchmarkRecordJSON(b *testing.B) {
	r := Record{ID: "c1234", Time: time.Now().UTC(), Workspace: "/home/u/proj", Path: "/home/u/proj/pkg/file.go",
		Display: "pkg/file.go", Key: "/home/u/proj/pkg/file.go", Session: "s-6f1d", Tool: "edit", Verb: "edit",
		Existed: true, Mode: 0o644, Size: 4096, Digest: strings.Repeat("ab", 32), Kept: true,
		VersionBefore: "2049:1234567:4096:1733600000123456789:1733600000123456789", Pending: true,
		AfterDigest: strings.Repeat("cd", 32), PID: 4242, Group: "g-77"}
	e := journaled{DB: strings.Repeat("0f", 16), Done: []completion{{seq: 1233, versionAfter: r.VersionBefore}}, Seq: 1234, Record: r}
	for _, v := range []struct {
		name string
		f    func() ([]byte, error)
	}{
		{"record/encoding-json", func() ([]byte, error) { return json.Marshal(&r) }},
		{"record/by-hand", func() ([]byte, error) { return marshalRecord(&r) }},
		{"frame/encoding-json", func() ([]byte, error) { return json.Marshal(&e) }},
		{"frame/by-hand", func() ([]byte, error) { return marshalJournaled(&e) }},
	} {
		b.Run(v.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := v.f(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestMarshalRecordCoversEveryField: with every field of Record set (found by reflection, so a
// field added later is set too), marshalRecord still writes what json.Marshal writes; a field
// marshalRecord does not know would be missing from its output.
func TestMarshalRecordCoversEveryField(t *testing.T) {
	var r Record
	v := reflect.ValueOf(&r).Elem()
	for i := range v.NumField() {
		f := v.Field(i)
		switch f.Kind() {
		case reflect.String:
			f.SetString("v" + strconv.Itoa(i))
		case reflect.Bool:
			f.SetBool(true)
		case reflect.Int, reflect.Int64:
			f.SetInt(int64(i + 1))
		case reflect.Uint32:
			f.SetUint(uint64(i + 1))
		case reflect.Slice:
			f.Set(reflect.ValueOf([]string{"d" + strconv.Itoa(i)}))
		case reflect.Struct:
			f.Set(reflect.ValueOf(time.Unix(int64(i), 5).UTC()))
		default:
			t.Fatalf("field %s (%s): set it here and write it in appendRecord", v.Type().Field(i).Name, f.Type())
		}
	}
	same(t, "record", func() ([]byte, error) { return json.Marshal(&r) }, func() ([]byte, error) { return marshalRecord(&r) })
}

// TestMarshalJournaledKnowsEveryField: the frame's JSON fields (and a completion's) are those
// marshalJournaled writes; one added to journaled or journalDone fails here until it is written
// there too.
func TestMarshalJournaledKnowsEveryField(t *testing.T) {
	for typ, want := range map[reflect.Type]string{reflect.TypeFor[journaled](): "DB,Done,Seq,Record",
		reflect.TypeFor[journalDone](): "Seq,VersionAfter,Interrupted"} {
		var names []string
		for f := range typ.Fields() {
			if f.IsExported() {
				names = append(names, f.Name)
			}
		}
		if got := strings.Join(names, ","); got != want {
			t.Fatalf("%s's fields are %s: write the new ones in marshalJournaled", typ.Name(), got)
		}
	}
	e := journaled{DB: "d", Done: []completion{{seq: 1, versionAfter: "v", interrupted: true}}, Seq: 2, Record: Record{ID: "c2"}}
	same(t, "frame", func() ([]byte, error) { return json.Marshal(&e) }, func() ([]byte, error) { return marshalJournaled(&e) })
}
