// Package modelcatalog is the plugin "model-catalog": a static, configured catalog of the models
// sessions may talk to, provided as the tools.Models seam ("modelCatalog").
//
// # Contract
//
//   - The catalog is the configured list of models, each an id and, optionally, the input
//     modalities it accepts ("text", "image"). A model whose input is omitted has unknown
//     capability: ResolveModel reports it with nil InputModalities, the same as an id the catalog
//     does not list.
//   - DefaultModel is the model of a session that names none (tools.ModelFor). The default
//     configuration lists one model, "default", which accepts text and image input (docs/host.md
//     "Embedded profiles": the default model takes image input), and makes it the default.
//   - ResolveModel matches ids case-insensitively: first the id as given, then, for an id with a
//     '/', its last segment ("vendor/m" finds "m"). A
//     match reports the catalog's spelling of the id and a copy of its modalities; no match
//     reports ModelInfo{ID: id} and no error. A cancelled context fails with its cause.
//   - The catalog is immutable after load and safe for concurrent use.
//
// # Configuration
//
//	plugins:
//	  - name: model-catalog
//	    config:
//	      defaultModel: vision
//	      models:
//	        - { id: vision, input: [text, image] }
//	        - { id: text-only, input: [text] }
//	        - { id: legacy }            # capability unknown
//
// Decoding is strict (unknown keys, in the entry or in a model, are errors). Validate refuses a
// blank defaultModel, a blank or duplicate (case-insensitive) model id, an empty input list, an
// unknown or repeated modality, and a defaultModel the list does not name; every message starts with
// "model-catalog: ".
package modelcatalog
