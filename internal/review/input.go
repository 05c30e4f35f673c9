package review

import (
	"context"

	"github.com/arbiter-eval/arbiter/internal/input"
	"github.com/arbiter-eval/arbiter/internal/seduce"
)

// DatasetInput sets the dataset o reviews from path: "builtin" (or "") is the bundled
// reference set, anything else a JSONL or CSV file, kept whole as it was read.
func (o *NewOptions) DatasetInput(ctx context.Context, path string) error {
	if path == "" || path == "builtin" {
		ds, err := seduce.Builtin(o.Taxonomy)
		if err != nil {
			return err
		}
		o.DatasetName, o.Format, o.Data = "reference.jsonl", seduce.FormatJSONL, EncodeDataset(ds)
		return nil
	}
	format, err := seduce.FormatOf(path)
	if err != nil {
		return err
	}
	data, err := input.ReadFile(ctx, path)
	if err != nil {
		return err
	}
	o.DatasetName, o.Format, o.Data = path, format, data
	return nil
}
