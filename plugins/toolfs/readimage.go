package toolfs

import (
	"context"
	"encoding/base64"

	"github.com/cordon-dev/cordon/internal/texts"
	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/plugins/attachments"
	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/tools"
	"github.com/cordon-dev/cordon/plugins/tools/filetool"
)

// readImageModuleID is the id of the child instance that holds the read_image registration.
const readImageModuleID = ID + "/read-image"

// mountReadImage loads, as a child of the tool-fs instance, the module that registers read_image.
// It injects the attachments service, so the tool exists exactly while a store is mounted: the
// child stays pending without one, unloads (withdrawing the tool) when the store goes and loads
// again when one returns. The other tools are unaffected.
func (s *suite) mountReadImage(kc *kernel.Context) error {
	m := kernel.Module{
		ID:     readImageModuleID,
		Inject: []kernel.Dep{attachments.Service.Dep()},
		Apply: func(child *kernel.Context, _ any) error {
			_, err := tools.Service.Must(child).Register(child, s.readImageDefinition())
			return err
		},
	}
	_, err := kc.Load(m, nil)
	return err
}

func (s *suite) readImageDefinition() tools.Definition {
	return tools.Tool[readImageArgs, ReadImageValue]{
		Name:        "read_image",
		Description: readImageDescription,
		Parameters:  readImageParameters,
		Execute:     filetool.BudgetErrors(s.caps.budget, s.readImage),
		Render: func(_ readImageArgs, v ReadImageValue) []tools.Content {
			return []tools.Content{
				tools.TextContent(RenderReadImage(v.Path, v.Image)),
				tools.ImageContent(string(v.Image.MediaType), base64.StdEncoding.EncodeToString(s.imageBytes(v))),
			}
		},
		PresentationMeta: func(_ readImageArgs, v ReadImageValue) any { return ReadImageMeta{Path: v.Path} },
		// Content-addressed attachment writes are idempotent: concurrent reads cannot conflict.
		ConcurrencySafe: func(readImageArgs) bool { return true },
		Annotations:     tools.Annotations{ReadOnly: true, Idempotent: true},
	}.Definition()
}

// readImageArgs are read_image's arguments.
type readImageArgs struct {
	FilePath string `json:"file_path"`
}

// imageBytes returns the stored bytes of a value: those the body read, or (for a value a
// post-execute policy replaced, which carries only the attachment reference) a verified read from
// the store. It panics when neither is available, which the runtime reports as INVALID_TOOL_OUTPUT.
func (s *suite) imageBytes(v ReadImageValue) []byte {
	if v.data != nil {
		return v.data
	}
	store, ok := attachments.Service.Get(s.kc)
	if !ok {
		panic("read_image: the image bytes are unavailable (no attachment service is mounted)")
	}
	stored, err := store.ReadImage(context.Background(), v.Image)
	if err != nil {
		panic("read_image: the image bytes are unavailable: " + err.Error())
	}
	return stored.Data
}

// readImage is the body of the read_image tool (docs/tool-fs.md "read_image", extension-less paths
// included): every gate runs before any filesystem I/O; then resolve, one Stat, a bounded
// read, the signature check of an extension-less file, SaveImage, a verified read of the stored
// bytes, and the present observation at the Stat's version.
func (s *suite) readImage(ctx context.Context, a readImageArgs, exec *tools.Exec) (ReadImageValue, error) {
	p := a.FilePath
	if texts.IsBlank(p) {
		return ReadImageValue{}, errBlankPath
	}
	adm, err := s.ft.AdmitImage(ctx, exec, p)
	if err != nil {
		return ReadImageValue{}, err
	}
	ctx = s.ft.ReadContext(ctx, exec) // the session's roots, as a mutation's (docs/sandbox.md "Roots")

	target, err := s.fs.Resolve(ctx, p, fs.ResolveOptions{Cwd: filetool.SessionCwd(exec.Header().Cwd, p)})
	if err != nil {
		return ReadImageValue{}, err
	}
	dp := target.DisplayPath
	info, err := s.fs.Stat(ctx, target)
	if err != nil {
		return ReadImageValue{}, err
	}
	if info == nil {
		if err := s.ft.Observe(ctx, target, fs.Absent(), exec); err != nil {
			return ReadImageValue{}, err
		}
		return ReadImageValue{}, fs.ReadNotFound(dp, nil)
	}
	if info.Type != fs.TypeFile {
		return ReadImageValue{}, fs.ReadNotRegular(dp)
	}
	data, err := s.fs.ReadBytes(ctx, target, adm.ReadCap())
	if err != nil {
		return ReadImageValue{}, err
	}

	claim := imageClaim{mediaType: adm.Declared}
	if adm.Declared == "" {
		sniffed, err := filetool.SniffImage(data, adm.Limits, dp)
		if err != nil {
			return ReadImageValue{}, err
		}
		claim = imageClaim{mediaType: sniffed, sniffed: true}
	} else {
		// The mismatch remedy names the display path's extension.
		claim.ext, _ = filetool.ImageExtension(dp)
	}

	// Persist before returning: the image block must reference a durable object by the time
	// the tool result is recorded.
	ref, err := adm.Store.SaveImage(ctx, attachments.SaveImage{Data: data, MediaType: claim.mediaType, Name: baseName(dp)})
	if err != nil {
		return ReadImageValue{}, remapSaveError(err, dp, adm.Limits, claim)
	}
	stored, err := adm.Store.ReadImage(ctx, ref)
	if err != nil {
		return ReadImageValue{}, err
	}
	if err := s.ft.Observe(ctx, target, fs.Present(info.Version), exec); err != nil {
		return ReadImageValue{}, err
	}
	return ReadImageValue{Path: dp, Image: ref, data: stored.Data}, nil
}

// baseName is Node's POSIX path.basename: the last segment, trailing '/' ignored.
func baseName(p string) string {
	end := len(p)
	for end > 0 && p[end-1] == '/' {
		end--
	}
	start := end
	for start > 0 && p[start-1] != '/' {
		start--
	}
	return p[start:end]
}
