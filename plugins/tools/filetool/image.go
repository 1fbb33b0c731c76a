package filetool

import (
	"bytes"
	"context"
	"errors"
	"strings"

	"github.com/cordon-dev/cordon/plugins/attachments"
	"github.com/cordon-dev/cordon/plugins/tools"
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

// ImageExtension returns the lower-cased extension of p and the media type it declares ("" when
// the extension is absent or is not an image extension).
func ImageExtension(p string) (ext string, declared attachments.MediaType) {
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

// ImageAdmission is what read_image's gates admit before any file I/O: the store, its limits, and
// the media type the path's extension declares ("" for an extension-less path, whose signature
// decides after the read).
type ImageAdmission struct {
	Store    attachments.Store
	Limits   attachments.ImageLimits
	Declared attachments.MediaType
}

// ReadCap is the bound of the read: one tool result is one message carrying one image, so the
// per-message bound applies too.
func (a ImageAdmission) ReadCap() int64 {
	return int64(min(a.Limits.MaxImageBytes, a.Limits.MaxMessageImageBytes))
}

// AdmitImage runs read_image's gates that follow the blank-path check, in their order
// (docs/tool-fs.md "Gates, in order, all before any file I/O"): the extension, the store, the
// declared type against the deployment's, and the route. p is the path the refusals name.
func (e *Env) AdmitImage(ctx context.Context, exec *tools.Exec, p string) (ImageAdmission, error) {
	ext, declared := ImageExtension(p)
	if declared == "" && ext != "" {
		return ImageAdmission{}, errors.New(`cannot read "` + p + `": the ` + ext + ` extension does not declare a supported image format; ` +
			`read_image accepts PNG/JPEG/WebP/GIF files, including extension-less files in those formats`)
	}
	store, ok := attachments.Service.Get(e.KC)
	if !ok {
		return ImageAdmission{}, errors.New(`cannot read "` + p + `" as an image: no attachment service is mounted`)
	}
	limits := store.ImageLimits()
	if declared != "" && !limits.Accepts(declared) {
		return ImageAdmission{}, notAccepted(p, declared)
	}
	if err := e.requireImageRoute(ctx, exec, p); err != nil {
		return ImageAdmission{}, err
	}
	return ImageAdmission{Store: store, Limits: limits, Declared: declared}, nil
}

// SniffImage is the signature check of an extension-less file (docs/tool-fs.md "read_image",
// "Then" step 3): the media type data claims, refused when none matches or when the deployment
// does not accept it. dp is the display path the refusals name.
func SniffImage(data []byte, limits attachments.ImageLimits, dp string) (attachments.MediaType, error) {
	sniffed := SniffImageType(data)
	if sniffed == "" {
		return "", errors.New(`cannot read "` + dp + `": the file content is not a supported image format; read_image accepts PNG/JPEG/WebP/GIF`)
	}
	if !limits.Accepts(sniffed) {
		return "", notAccepted(dp, sniffed)
	}
	return sniffed, nil
}

// notAccepted is the refusal of a media type the deployment does not accept; p is the raw
// argument (declared type, before I/O) or the display path (sniffed type, after the read).
func notAccepted(p string, m attachments.MediaType) error {
	return errors.New(`cannot read "` + p + `": ` + string(m) + ` images are not accepted by this deployment`)
}

// requireImageRoute is the route gate (docs/tool-fs.md "Gates, in order, all before any file I/O",
// through the tools.Models seam): the call's model is its session's header model, else the
// catalog's default model. Without a session, a catalog or a model the route cannot be resolved; a
// resolve error propagates unchanged; a model that does not declare image input (unknown capability
// included) is refused.
func (e *Env) requireImageRoute(ctx context.Context, exec *tools.Exec, p string) error {
	catalog, ok := tools.Models.Get(e.KC)
	model := ""
	if ok {
		model = tools.ModelFor(exec, catalog)
	}
	if model == "" {
		return errors.New(`cannot read "` + p + `" as an image: the current model route could not be resolved`)
	}
	info, err := catalog.ResolveModel(ctx, model)
	if err != nil {
		return err
	}
	if !info.AcceptsImages() {
		return errors.New(`cannot read "` + p + `" as an image: model "` + model +
			`" does not declare image input; switch to an image-capable model to read images`)
	}
	return nil
}
