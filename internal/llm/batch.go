package llm

import "context"

// BatchLine is one request of a batch. ID is unique within the batch and made only of
// letters, digits, '_' and '-', which both providers accept as a custom id.
type BatchLine struct {
	ID      string
	Request *Request
}

// BatchStatus is where a submitted batch stands, in the provider's own words
// (validating, in_progress, finalizing, completed, failed, expired, cancelled for
// OpenAI; in_progress, canceling, ended for Anthropic).
type BatchStatus struct {
	ID     string
	Status string
	// Ended is set once the provider will change nothing more: its results can be read.
	Ended bool
	// Counts as the provider reports them.
	Total, Succeeded, Failed int
}

// BatchResult is the outcome of one line of an ended batch. Exactly one of Reply and
// Err is set; Err with Retryable set (an expired or cancelled line, a server error) is worth
// submitting again.
type BatchResult struct {
	ID    string
	Reply *Reply
	Err   *Error
}

// Batcher sends many independent requests through a provider's batch API, at its batch
// price. Lines whose results an ended batch lacks are failed lines to submit again.
type Batcher interface {
	Name() ModelName
	// BatchLimits are the most lines and bytes (of the encoded batch) one batch may hold.
	BatchLimits() (lines, bytes int)
	// BatchLineSize is how many bytes the line adds to its batch's encoding.
	BatchLineSize(line BatchLine) (int, error)
	// SubmitBatch creates a batch of lines and returns its id once the provider has
	// accepted it.
	SubmitBatch(ctx context.Context, lines []BatchLine) (string, error)
	// PollBatch asks how the batch stands.
	PollBatch(ctx context.Context, id string) (BatchStatus, error)
	// BatchResults reads the results of an ended batch.
	BatchResults(ctx context.Context, id string) ([]BatchResult, error)
}
