package history

import (
	"encoding/json"
	"strconv"

	"github.com/cordon-dev/cordon/internal/jsonscan"
)

// marshalRecord returns r as json.Marshal encodes it, which is the stored form (List matches the
// bytes of field values in it): appended by hand, without encoding/json's reflection and its
// second pass over the output (BenchmarkRecordJSON; FuzzRecordJSON holds the two equal).
func marshalRecord(r *Record) ([]byte, error) {
	if b, ok := appendRecord(make([]byte, 0, 1024), r); ok {
		return b, nil
	}
	return json.Marshal(r) // a time json.Marshal refuses: its error
}

// appendRecord appends r as json.Marshal encodes it; ok is false, and b is not to be used, for a
// time outside what RFC 3339 can write (json.Marshal's error).
func appendRecord(b []byte, r *Record) (_ []byte, ok bool) {
	b = appendField(b, `{"id":`, r.ID)
	b = append(b, `,"time":"`...)
	b, err := r.Time.AppendText(b) // json.Marshal's form of a time, and its refusals
	if err != nil {
		return b, false
	}
	b = append(b, '"')
	b = appendOmit(b, `,"workspace":`, r.Workspace)
	b = appendField(b, `,"path":`, r.Path)
	b = appendField(b, `,"display":`, r.Display)
	b = appendField(b, `,"key":`, r.Key)
	b = appendOmit(b, `,"session":`, r.Session)
	b = appendOmit(b, `,"tool":`, r.Tool)
	b = appendField(b, `,"verb":`, r.Verb)
	b = strconv.AppendBool(append(b, `,"existed":`...), r.Existed)
	if r.Mode != 0 {
		b = strconv.AppendUint(append(b, `,"mode":`...), uint64(r.Mode), 10)
	}
	b = strconv.AppendInt(append(b, `,"size":`...), r.Size, 10)
	b = appendOmit(b, `,"digest":`, r.Digest)
	b = strconv.AppendBool(append(b, `,"kept":`...), r.Kept)
	b = appendOmit(b, `,"versionBefore":`, r.VersionBefore)
	b = appendField(b, `,"versionAfter":`, r.VersionAfter)
	b = appendOmit(b, `,"undoes":`, r.Undoes)
	b = appendOmit(b, `,"undoneBy":`, r.UndoneBy)
	if r.Pending {
		b = append(b, `,"pending":true`...)
	}
	b = appendOmit(b, `,"afterDigest":`, r.AfterDigest)
	if r.PID != 0 {
		b = strconv.AppendInt(append(b, `,"pid":`...), int64(r.PID), 10)
	}
	if r.Interrupted {
		b = append(b, `,"interrupted":true`...)
	}
	b = appendOmit(b, `,"group":`, r.Group)
	if len(r.MadeDirs) > 0 {
		b = append(b, `,"madeDirs":[`...)
		for i, d := range r.MadeDirs {
			if i > 0 {
				b = append(b, ',')
			}
			b = jsonscan.AppendString(b, d)
		}
		b = append(b, ']')
	}
	return append(b, '}'), true
}

// marshalJournaled returns e as json.Marshal encodes it (a journal frame's JSON), appended as
// marshalRecord appends its record.
func marshalJournaled(e *journaled) ([]byte, error) {
	b := appendField(make([]byte, 0, 1024), `{"db":`, e.DB)
	if len(e.Done) > 0 {
		b = append(b, `,"done":[`...)
		for i, c := range e.Done {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendUint(append(b, `{"seq":`...), c.seq, 10)
			b = appendField(b, `,"versionAfter":`, c.versionAfter)
			if c.interrupted {
				b = append(b, `,"interrupted":true`...)
			}
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = strconv.AppendUint(append(b, `,"seq":`...), e.Seq, 10)
	b, ok := appendRecord(append(b, `,"record":`...), &e.Record)
	if !ok {
		return json.Marshal(e)
	}
	return append(b, '}'), nil
}

func appendField(b []byte, key, v string) []byte { return jsonscan.AppendString(append(b, key...), v) }

// appendOmit is appendField for a field tagged omitempty.
func appendOmit(b []byte, key, v string) []byte {
	if v == "" {
		return b
	}
	return appendField(b, key, v)
}
