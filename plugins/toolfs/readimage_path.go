package toolfs

import (
	"bytes"
	"strings"

	"github.com/cordon-dev/cordon/plugins/attachments"
)

// imageExtensions maps the lower-cased extensions read_image accepts to the media type they
// declare. The declaration is a claim: the store's decode stays authoritative.
var imageExtensions = map[string]attachments.MediaType{
	".png":  attachments.MediaTypePNG,
	".jpg":  attachments.MediaTypeJPEG,
	".jpeg": attachments.MediaTypeJPEG,
	".webp": attachments.MediaTypeWebP,
	".gif":  attachments.MediaTypeGIF,
}

// ExtName returns the extension of a path as Node's POSIX path.extname does: the part of the last
// segment from its last '.', ignoring trailing '/' separators. A segment that starts with its only
// dot (".png"), a dotless segment and ".." have none (""); "foo." has "." and "..." has ".".
// filepath.Ext differs (it reports ".png" for ".png").
func ExtName(p string) string {
	startDot, startPart, end := -1, 0, -1
	matchedSlash := true
	// preDotState: 0 = nothing before the last dot yet, 1 = only dots, -1 = another character.
	preDotState := 0
	for i := len(p) - 1; i >= 0; i-- {
		c := p[i]
		if c == '/' {
			if !matchedSlash {
				startPart = i + 1
				break
			}
			continue
		}
		if end == -1 {
			matchedSlash = false
			end = i + 1
		}
		switch {
		case c == '.':
			if startDot == -1 {
				startDot = i
			} else if preDotState != 1 {
				preDotState = 1
			}
		case startDot != -1:
			preDotState = -1
		}
	}
	if startDot == -1 || end == -1 || preDotState == 0 ||
		(preDotState == 1 && startDot == end-1 && startDot == startPart+1) {
		return ""
	}
	return p[startDot:end]
}

// imageExtension returns the lower-cased extension of p and the media type it declares ("" when
// the extension is absent or is not an image extension).
func imageExtension(p string) (ext string, declared attachments.MediaType) {
	ext = strings.ToLower(ExtName(p))
	return ext, imageExtensions[ext]
}

// The file signatures read_image recognizes (docs/tool-fs.md "read_image", "Then" step 3).
var (
	pngSignature  = []byte{0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'}
	jpegSignature = []byte{0xFF, 0xD8, 0xFF}
)

// SniffImageType returns the media type the leading bytes of an image file claim: PNG
// (89 50 4E 47 0D 0A 1A 0A), JPEG (FF D8 FF), GIF ("GIF87a" or "GIF89a") or WebP ("RIFF" at 0 and
// "WEBP" at 8); "" when none matches. The claim is only a signature: the bytes may still fail to
// decode or decode as another format.
func SniffImageType(data []byte) attachments.MediaType {
	switch {
	case bytes.HasPrefix(data, pngSignature):
		return attachments.MediaTypePNG
	case bytes.HasPrefix(data, jpegSignature):
		return attachments.MediaTypeJPEG
	case bytes.HasPrefix(data, []byte("GIF87a")), bytes.HasPrefix(data, []byte("GIF89a")):
		return attachments.MediaTypeGIF
	case len(data) >= 12 && string(data[:4]) == "RIFF" && string(data[8:12]) == "WEBP":
		return attachments.MediaTypeWebP
	}
	return ""
}
