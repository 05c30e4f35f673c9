package config

// PriceSpec is one model's price in the config file's prices section, in US dollars per
// million tokens. A field left out keeps the model database's value; a model the
// database lacks needs at least input and output.
type PriceSpec struct {
	Input       *float64 `yaml:"input"`
	Output      *float64 `yaml:"output"`
	CachedInput *float64 `yaml:"cached_input"`
	// Batch is the share of the price paid through the provider's batch API (0.5 for
	// half price); 0 or absent keeps the provider's own.
	Batch *float64 `yaml:"batch"`
}
