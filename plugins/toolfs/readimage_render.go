package toolfs

import (
	"encoding/json"
	"math/big"
	"strconv"

	"github.com/cordon-dev/cordon/plugins/attachments"
)

// ReadImageValue is the canonical value of a successful read_image: the target's display path and
// the reference of the stored image (optional keys omitted when absent). The stored bytes travel
// beside it, unexported, for the image block; they are never part of the JSON value.
type ReadImageValue struct {
	Path  string               `json:"path"`
	Image attachments.ImageRef `json:"image"`

	data []byte // the verified stored bytes, for Render; nil after a post-execute replacement
}

// ReadImageMeta is the presentation meta of a read_image: the display path.
type ReadImageMeta struct {
	Path string `json:"path"`
}

// RenderReadImage renders the text envelope of a read_image beside its image block:
//
//	<path><dp></path>
//	<type>image</type>
//	<content>
//	<mediaType> image, <w>x<h> px, <bytes> bytes<scaled>
//	</content>
//
// <scaled> is empty unless the ref has OriginalDimensions; then it names the original size and
// the multiplier(s) that map coordinates on the stored image back onto the original file, each
// formatted as JavaScript's toFixed(2) would (ToFixed2).
func RenderReadImage(displayPath string, ref attachments.ImageRef) string {
	image := []string{"media_type", string(ref.MediaType), "width", strconv.Itoa(ref.Width), "height", strconv.Itoa(ref.Height),
		"bytes", strconv.Itoa(ref.Bytes)}
	body := fsText.MustRender("read_image.image", image...)
	if o := ref.OriginalDimensions; o != nil {
		x := ToFixed2(float64(o.Width) / float64(ref.Width))
		y := ToFixed2(float64(o.Height) / float64(ref.Height))
		advice := fsText.MustRender("read_image.advice", "x", x)
		if x != y {
			advice = fsText.MustRender("read_image.advice.xy", "x", x, "y", y)
		}
		body = fsText.MustRender("read_image.image.downscaled", append(image, "original_width", strconv.Itoa(o.Width),
			"original_height", strconv.Itoa(o.Height), "advice", advice)...)
	}
	return fsText.MustRender("read_image.envelope", "path", displayPath, "body", body)
}

// ToFixed2 formats a finite, non-negative v below 1e21 with exactly two decimals as JavaScript's
// Number.prototype.toFixed(2) does: the exact binary value of v is rounded half up (2.125 gives
// "2.13", where strconv rounds the tie to even and gives "2.12"). Other values (negative, NaN,
// infinite, huge; never a size ratio) fall back to strconv.
func ToFixed2(v float64) string {
	if !(v >= 0 && v < 1e21) {
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
	// n = floor(v*100 + 1/2), computed exactly on the binary value of v.
	r := new(big.Rat).SetFloat64(v)
	r.Mul(r, big.NewRat(100, 1))
	r.Add(r, big.NewRat(1, 2))
	n := new(big.Int).Quo(r.Num(), r.Denom()) // both positive: truncation is floor
	s := n.String()
	for len(s) < 3 {
		s = "0" + s
	}
	return s[:len(s)-2] + "." + s[len(s)-2:]
}

// PresentReadImageCall returns the card of a pending read_image: a generic card of the read
// family titled `Read image <file_path>` with the raw path as its location. It declines (nil) for
// arguments that do not match the schema.
func PresentReadImageCall(args json.RawMessage) *CallView {
	var a struct {
		FilePath string `json:"file_path"`
	}
	if !presentArgs(readImageParameters, args, &a) {
		return nil
	}
	return &CallView{Card: CardGeneric, Title: "Read image " + a.FilePath, Kind: "read", Locations: []Location{{Path: a.FilePath}}}
}
