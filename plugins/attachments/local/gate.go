package local

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/cordon-dev/cordon/plugins/attachments"
)

// memoryGate admits transforms against a process-wide memory budget; the
// zero value admits everything (a store always has a budget).
type memoryGate struct {
	budget *memoryBudget
	wait   time.Duration
}

// admit reserves the estimate of transforming a source with facts f (n
// bytes) under p. An estimate over the whole budget is
// IMAGE_OVER_MEMORY_BUDGET at once; a wait past the bound is
// ATTACHMENT_BUSY; a done ctx is context.Cause(ctx). The returned release
// gives the reservation back.
func (g memoryGate) admit(ctx context.Context, f facts, n int, p NormalizationPolicy) (func(), error) {
	if g.budget == nil {
		return func() {}, nil
	}
	need := transformMemory(f, n, p)
	if need > g.budget.capacity {
		return nil, overBudget(f, n, p, need, g.budget.capacity)
	}
	release, err := g.budget.acquire(ctx, need, g.wait)
	if err != nil {
		if ctx.Err() != nil {
			return nil, context.Cause(ctx)
		}
		return nil, attachments.NewError(attachments.CodeBusy, BusyMessage(g.wait), err)
	}
	return release, nil
}

const mib = 1 << 20

// overBudget is IMAGE_OVER_MEMORY_BUDGET for a source whose estimate need
// exceeds capacity, naming its size and kind and the largest size of the
// same source that fits.
func overBudget(f facts, n int, p NormalizationPolicy, need, capacity int64) *attachments.Error {
	msg := fmt.Sprintf("Image is too large to normalize in memory: a %dx%d %s needs about %d MiB, more than the %d MiB image-transform memory budget",
		f.width, f.height, describeSource(f), (need+mib-1)/mib, capacity/mib)
	if w, h, ok := largestFit(f, n, p, capacity); ok {
		msg += fmt.Sprintf("; downscale it to at most %dx%d px and retry.", w, h)
	} else {
		msg += ", which cannot hold even a 1x1 copy of it."
	}
	return attachments.NewError(attachments.CodeImageOverMemoryBudget, msg, nil)
}

// BusyMessage is the ATTACHMENT_BUSY message for a wait bound.
func BusyMessage(wait time.Duration) string {
	return "Image normalization is busy: the image-transform memory budget stayed full for " +
		strconv.FormatFloat(wait.Seconds(), 'f', -1, 64) + " s; retry the call."
}

// largestFit is the largest oriented size, aspect kept, at which the same
// source's estimate fits capacity (a binary search on the long side).
func largestFit(f facts, n int, p NormalizationPolicy, capacity int64) (int, int, bool) {
	scaled := func(long int) facts {
		g := f
		l := max(f.rawW, f.rawH)
		g.setRaw(max(1, f.rawW*long/l), max(1, f.rawH*long/l))
		return g
	}
	lo, hi := 0, max(f.rawW, f.rawH) // lo fits (0 = none yet), hi does not
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if transformMemory(scaled(mid), n, p) <= capacity {
			lo = mid
		} else {
			hi = mid
		}
	}
	if lo == 0 {
		if transformMemory(scaled(1), n, p) > capacity {
			return 0, 0, false
		}
		lo = 1
	}
	g := scaled(lo)
	return g.width, g.height, true
}

// describeSource names the coding of a source for the over-budget message,
// e.g. "interlaced 16-bit RGBA PNG", "progressive CMYK JPEG".
func describeSource(f facts) string {
	l := f.layout
	switch f.mediaType {
	case attachments.MediaTypePNG:
		colour := map[byte]string{0: "greyscale", 2: "RGB", 3: "palette", 4: "greyscale-alpha", 6: "RGBA"}[l.pngColourType]
		s := fmt.Sprintf("%d-bit %s PNG", l.pngBitDepth, colour)
		if l.interlaced {
			s = "interlaced " + s
		}
		return s
	case attachments.MediaTypeJPEG:
		s := "JPEG"
		switch len(l.jpegComps) {
		case 1:
			s = "greyscale " + s
		case 4:
			s = "CMYK " + s
		}
		if l.jpegSOF == 0xC2 {
			s = "progressive " + s
		}
		return s
	case attachments.MediaTypeWebP:
		switch {
		case f.webpFrames > 0:
			return "animated WebP"
		case l.webpLossless:
			return "lossless WebP"
		case l.webpALPH:
			return "lossy WebP with alpha"
		}
		return "lossy WebP"
	}
	return attachments.FormatName(f.mediaType)
}
