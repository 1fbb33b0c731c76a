package mcphost

import (
	"bytes"
	"net/http"
	"strings"
	"sync"
)

// idWriter is the response of a POST with surrogates (httpIDs): each surrogate the handler writes
// goes out as the client's text. An event stream is rewritten event by event, and an event naming
// a cancelled call is not sent; a JSON body (an error the handler answers with) is rewritten as it
// is written. At most one event, or the start of one surrogate, is held: the handler writes each
// event whole, so in practice nothing is.
type idWriter struct {
	http.ResponseWriter
	post *idPost

	mu      sync.Mutex
	mode    byte   // 0: not yet known; 's': an event stream; 'j': JSON; 'p': anything else, passed on
	pending []byte // an event begun ('s'), or the start of a surrogate ('j')
	spans   []idSpan
}

// idSpan is a surrogate found in what is written: its span, and what it stands for.
type idSpan struct {
	span
	ref *idRef
}

func (w *idWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.mode == 0 {
		switch ct := w.Header().Get("Content-Type"); {
		case strings.HasPrefix(ct, "text/event-stream"):
			w.mode = 's'
		case strings.HasPrefix(ct, "application/json"):
			w.mode = 'j'
		default:
			w.mode = 'p'
		}
	}
	var err error
	switch w.mode {
	case 's':
		err = w.events(p)
	case 'j':
		err = w.json(p)
	default:
		_, err = w.ResponseWriter.Write(p)
	}
	if err != nil {
		return 0, err
	}
	return len(p), nil
}

// events writes the events that p completes, holding an event begun.
func (w *idWriter) events(p []byte) error {
	if len(w.pending) > 0 {
		from := max(len(w.pending)-1, 0)
		w.pending = append(w.pending, p...)
		end := bytes.LastIndex(w.pending[from:], []byte("\n\n"))
		if end < 0 {
			return nil
		}
		end += from + 2
		err := w.eventsIn(w.pending[:end])
		w.pending = append(w.pending[:0], w.pending[end:]...)
		return err
	}
	end := bytes.LastIndex(p, []byte("\n\n")) + 2
	if end < 2 {
		end = 0
	}
	w.pending = append(w.pending, p[end:]...)
	return w.eventsIn(p[:end])
}

// eventsIn writes whole events.
func (w *idWriter) eventsIn(b []byte) error {
	for len(b) > 0 {
		i := bytes.Index(b, []byte("\n\n")) + 2
		if err := w.write(b[:i], true); err != nil {
			return err
		}
		b = b[i:]
	}
	return nil
}

// json writes p, holding back a surrogate it may end in the middle of.
func (w *idWriter) json(p []byte) error {
	if len(w.pending) > 0 {
		p = append(w.pending, p...)
		w.pending = nil
	}
	cut := w.post.ids.partialAt(p)
	w.pending = append(w.pending, p[cut:]...)
	return w.write(p[:cut], false)
}

// write writes b with its surrogates replaced; b is an event when event, and is then dropped if
// it names a cancelled call.
func (w *idWriter) write(b []byte, event bool) error {
	w.spans = w.post.find(b, w.spans[:0])
	if event {
		for _, s := range w.spans {
			if s.ref.call.cancelled.Load() {
				return nil
			}
		}
	}
	at := 0
	for _, s := range w.spans {
		if _, err := w.ResponseWriter.Write(b[at:s.s]); err != nil {
			return err
		}
		if _, err := w.ResponseWriter.Write(s.ref.raw); err != nil {
			return err
		}
		at = s.e
	}
	if at == len(b) {
		return nil
	}
	_, err := w.ResponseWriter.Write(b[at:])
	return err
}

// finish writes what is held, once the handler has returned.
func (w *idWriter) finish() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.pending) > 0 {
		_ = w.write(w.pending, w.mode == 's')
		w.pending = nil
	}
}

func (w *idWriter) Flush() {
	_ = http.NewResponseController(w.ResponseWriter).Flush()
}

func (w *idWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// find appends the POST's surrogates in b to spans.
func (p *idPost) find(b []byte, spans []idSpan) []idSpan {
	prefix := p.ids.prefix
	for at := 0; ; {
		i := bytes.Index(b[at:], prefix)
		if i < 0 {
			return spans
		}
		s := at + i
		j := s + len(prefix)
		n, k := uint64(0), j
		for ; k < len(b) && b[k] >= '0' && b[k] <= '9' && k-j < 19; k++ {
			n = n*10 + uint64(b[k]-'0')
		}
		at = k
		if k == j || k >= len(b) || b[k] != '"' {
			continue
		}
		at = k + 1
		if r := p.ref(n); r != nil {
			spans = append(spans, idSpan{span{s, k + 1}, r})
		}
	}
}

// partialAt is where b may end in the middle of a surrogate (len(b) when it cannot): a
// surrogate holds no quote, so it would begin at b's last one.
func (ids *httpIDs) partialAt(b []byte) int {
	q := bytes.LastIndexByte(b, '"')
	if q < 0 {
		return len(b)
	}
	switch t := b[q:]; {
	case len(t) == 1 && ids.ends(b[:q]): // the closing quote of a whole surrogate
		return len(b)
	case len(t) <= len(ids.prefix):
		if bytes.HasPrefix(ids.prefix, t) {
			return q
		}
	case bytes.HasPrefix(t, ids.prefix) && digits(t[len(ids.prefix):]):
		return q
	}
	return len(b)
}

// ends reports whether b ends with a surrogate but its closing quote.
func (ids *httpIDs) ends(b []byte) bool {
	i := bytes.LastIndex(b, ids.prefix)
	return i >= 0 && i+len(ids.prefix) < len(b) && digits(b[i+len(ids.prefix):])
}

func digits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
