package app

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"io"
	"strconv"
	"sync"
)

// splicer is the stdio writer of `serve` that splices pre-encoded tool results into the outgoing
// JSON-RPC messages. The SDK validates and re-compacts a result's JSON twice after the result has
// encoded itself (once when jsonrpc2 builds the response, once when the transport encodes the
// message), which for a large read was most of the server's CPU. A result registered here encodes
// as a short JSON string token instead; those passes then scan only the token, and Write replaces
// the token (quotes included) with the registered encoding, which is already valid compact JSON.
// The messages written are the SDK's, value for value; the SDK's transport (framing, batches,
// protocol checks) is untouched.
//
// Tokens carry a random per-splicer nonce and are replaced only while registered, so text that
// merely looks like a token (in a file the client reads, say) is never touched. The SDK writes
// each message (or batch) with one Write call, so a token is never split across calls.
type splicer struct {
	w      io.Writer
	prefix []byte // `"cordon.splice.<nonce>.`

	mu      sync.Mutex
	seq     uint64
	pending map[uint64]spliced
}

// spliced is a registered result: its encoding is b[at:]; the bytes before it and the spare
// capacity after it are free for the message around it.
type spliced struct {
	b  []byte
	at int
}

func newSplicer(w io.Writer) *splicer {
	var nonce [8]byte
	_, _ = rand.Read(nonce[:]) // crypto/rand.Read never fails
	return &splicer{w: w, prefix: []byte(`"cordon.splice.` + hex.EncodeToString(nonce[:]) + `.`),
		pending: map[uint64]spliced{}}
}

// register keeps the encoding b[at:] (valid compact JSON) until Write meets the token it returns.
// b is the splicer's from then on: Write may fill b[:at] and the spare capacity after it.
func (s *splicer) register(b []byte, at int) []byte {
	s.mu.Lock()
	s.seq++
	n := s.seq
	s.pending[n] = spliced{b: b, at: at}
	s.mu.Unlock()
	tok := append(append([]byte(nil), s.prefix...), strconv.FormatUint(n, 10)...)
	return append(tok, '"')
}

// discard drops every registered result (the connection is gone).
func (s *splicer) discard() {
	s.mu.Lock()
	clear(s.pending)
	s.mu.Unlock()
}

// Write writes p with every registered token replaced by its encoding. It reports len(p) on success.
func (s *splicer) Write(p []byte) (int, error) {
	s.mu.Lock()
	if len(s.pending) == 0 {
		s.mu.Unlock()
		return s.w.Write(p)
	}
	var (
		out  [][]byte
		last spliced
	)
	rest := p
	for {
		i := bytes.Index(rest, s.prefix)
		if i < 0 {
			break
		}
		digits := rest[i+len(s.prefix):]
		j := bytes.IndexByte(digits, '"')
		n, err := strconv.ParseUint(string(digits[:max(j, 0)]), 10, 64)
		r, ok := s.pending[n]
		if j < 0 || err != nil || !ok {
			out = append(out, rest[:i+1])
			rest = rest[i+1:]
			continue
		}
		delete(s.pending, n)
		out = append(out, rest[:i], r.b[r.at:])
		last, rest = r, digits[j+1:]
	}
	s.mu.Unlock()
	if out == nil {
		return s.w.Write(p)
	}
	if before := out[0]; len(out) == 2 && len(before) <= last.at && cap(last.b)-len(last.b) >= len(rest) {
		// One result (the usual response): write the message from the result's buffer, no copy.
		msg := append(last.b, rest...)
		copy(msg[last.at-len(before):], before)
		if _, err := s.w.Write(msg[last.at-len(before):]); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	out = append(out, rest)
	size := 0
	for _, b := range out {
		size += len(b)
	}
	buf := make([]byte, 0, size)
	for _, b := range out {
		buf = append(buf, b...)
	}
	if _, err := s.w.Write(buf); err != nil {
		return 0, err
	}
	return len(p), nil
}
