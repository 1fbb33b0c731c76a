package local

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/attachments"
)

// writeFlatPNG16 streams a flat w×h 16-bit RGBA PNG (optionally Adam7
// interlaced) to out: 8 bytes per pixel once decoded, a few hundred KB on
// disk at 64 megapixels.
func writeFlatPNG16(out io.Writer, w, h int, interlaced bool) error {
	bw := bufio.NewWriter(out)
	chunk := func(typ string, data []byte) {
		c := crc32.NewIEEE()
		c.Write([]byte(typ))
		c.Write(data)
		bw.Write(binary.BigEndian.AppendUint32(nil, uint32(len(data))))
		bw.WriteString(typ)
		bw.Write(data)
		bw.Write(binary.BigEndian.AppendUint32(nil, c.Sum32()))
	}
	bw.Write(sigPNG)
	ihdr := binary.BigEndian.AppendUint32(nil, uint32(w))
	ihdr = binary.BigEndian.AppendUint32(ihdr, uint32(h))
	il := byte(0)
	passes := [][4]int{{0, 0, 1, 1}}
	if interlaced {
		il = 1
		passes = [][4]int{{0, 0, 8, 8}, {4, 0, 8, 8}, {0, 4, 4, 8}, {2, 0, 4, 4}, {0, 2, 2, 4}, {1, 0, 2, 2}, {0, 1, 1, 2}}
	}
	chunk("IHDR", append(ihdr, 16, 6, 0, 0, il))
	var z bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&z, zlib.BestCompression)
	for _, p := range passes {
		pw, ph := (w-p[0]+p[2]-1)/p[2], (h-p[1]+p[3]-1)/p[3]
		if pw <= 0 || ph <= 0 {
			continue
		}
		row := make([]byte, 1+8*pw)
		for x := 0; x < pw; x++ {
			copy(row[1+8*x:], []byte{0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xff, 0xff})
		}
		for y := 0; y < ph; y++ {
			zw.Write(row)
		}
	}
	if err := zw.Close(); err != nil {
		return err
	}
	chunk("IDAT", z.Bytes())
	chunk("IEND", nil)
	return bw.Flush()
}

func flatPNG16(t testing.TB, w, h int) []byte {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, writeFlatPNG16(&b, w, h, false))
	return b.Bytes()
}

// peakRSS is this process's VmHWM from /proc/self/status, in bytes.
func peakRSS(t testing.TB) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/self/status")
	require.NoError(t, err)
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) == 3 && f[0] == "VmHWM:" {
			n, err := strconv.ParseInt(f[1], 10, 64)
			require.NoError(t, err)
			return n << 10
		}
	}
	t.Fatal("no VmHWM in /proc/self/status")
	return 0
}

const (
	parallelFileEnv   = "ATTACHMENT_LOCAL_PARALLEL_FILE"
	parallelBudgetEnv = "ATTACHMENT_LOCAL_PARALLEL_BUDGET"
	parallelCallsEnv  = "ATTACHMENT_LOCAL_PARALLEL_CALLS"
	parallelCalls     = 12
)

// parallelResult is what TestParallelDecodesChild reports on stdout.
type parallelResult struct {
	BaseRSS, PeakRSS, Estimate int64
	Errors                     []string
	Seconds                    float64
}

// TestParallelDecodesChild is the child process of
// TestHeavyTwelveParallel64MegapixelDecodes: it admits the image file of
// $ATTACHMENT_LOCAL_PARALLEL_FILE $ATTACHMENT_LOCAL_PARALLEL_CALLS times
// (default 12) at once into one store whose memory budget is
// $ATTACHMENT_LOCAL_PARALLEL_BUDGET bytes, and prints its peak RSS and the
// file's estimate (the calibration of docs/attachments.md runs it with one
// call per file).
func TestParallelDecodesChild(t *testing.T) {
	file := os.Getenv(parallelFileEnv)
	if file == "" {
		t.Skip("child process of TestHeavyTwelveParallel64MegapixelDecodes")
	}
	budget, err := strconv.Atoi(os.Getenv(parallelBudgetEnv))
	require.NoError(t, err)
	calls := parallelCalls
	if v := os.Getenv(parallelCallsEnv); v != "" {
		calls, err = strconv.Atoi(v)
		require.NoError(t, err)
	}
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	s := newStore(t, func(c *Config) { c.ImageTransformMemoryBytes = budget })
	f, err := inspect(data)
	require.NoError(t, err)
	res := parallelResult{BaseRSS: peakRSS(t), Estimate: transformMemory(f, len(data), s.policy)}
	start := time.Now()
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range calls {
		wg.Go(func() {
			_, err := s.SaveImage(context.Background(), attachments.SaveImage{Data: data, MediaType: f.mediaType})
			if err != nil {
				mu.Lock()
				res.Errors = append(res.Errors, err.Error())
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	res.Seconds, res.PeakRSS = time.Since(start).Seconds(), peakRSS(t)
	out, err := json.Marshal(res)
	require.NoError(t, err)
	fmt.Printf("PARALLEL %s\n", out)
}

// Twelve 64-megapixel 16-bit RGBA PNGs (760 KB each on disk, 512 MB once
// decoded) admitted at once into one store stay under its 1 GiB memory
// budget: the whole process's peak RSS, measured in a child process, is
// below the budget. Before the budget the same run peaked at 2.8 GB with
// the default concurrency of 2 (docs/attachments.md).
func TestHeavyTwelveParallel64MegapixelDecodes(t *testing.T) {
	if raceEnabled || testing.Short() {
		t.Skip("decodes twelve 64-megapixel images; run without -race and -short (scripts/check does)")
	}
	file := filepath.Join(t.TempDir(), "flat16.png")
	f, err := os.Create(file)
	require.NoError(t, err)
	require.NoError(t, writeFlatPNG16(f, 8000, 8000, false))
	require.NoError(t, f.Close())
	const budget = 1 << 30
	cmd := exec.Command(os.Args[0], "-test.run=^TestParallelDecodesChild$", "-test.v")
	cmd.Env = append(os.Environ(), parallelFileEnv+"="+file, parallelBudgetEnv+"="+strconv.Itoa(budget))
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	var res parallelResult
	for _, l := range strings.Split(string(out), "\n") {
		if j, ok := strings.CutPrefix(l, "PARALLEL "); ok {
			require.NoError(t, json.Unmarshal([]byte(j), &res))
		}
	}
	require.NotZero(t, res.PeakRSS, "%s", out)
	t.Logf("12 parallel 64-megapixel RGBA16 PNGs, budget %d MiB: peak RSS %d MiB (base %d MiB), %.1f s",
		budget>>20, res.PeakRSS>>20, res.BaseRSS>>20, res.Seconds)
	assert.Empty(t, res.Errors)
	assert.Less(t, res.PeakRSS, int64(budget), "the process stays under the transform memory budget")
}
