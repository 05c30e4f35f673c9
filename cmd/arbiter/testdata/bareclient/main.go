// Command bareclient is BenchmarkSeduceRunProcess's baseline: the standard library alone
// sending as many chat completion requests as a run does, at the same concurrency, with
// bodies of the benchmark prompt's size, and decoding each answer. It keeps nothing and
// reads no reply, so the time it takes over the ideal is what asking costs before any of
// arbiter's work.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
)

func main() {
	n := flag.Int("n", 5376, "requests")
	concurrency := flag.Int("concurrency", 128, "requests at once")
	flag.Parse()
	base := os.Getenv("OPENAI_BASE_URL")
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = *concurrency
	client := &http.Client{Transport: tr}
	// The sizes of the benchmark's system prompt and of a sample's user message.
	system := strings.Repeat("You are the Keeper. ", 104)
	jobs := make(chan int)
	failed := make(chan error, *concurrency)
	var wg sync.WaitGroup
	for range *concurrency {
		wg.Go(func() {
			for i := range jobs {
				user := fmt.Sprintf("Session context:\n%s\n\nPlayer statement:\nI climb (%d).", strings.Repeat("The cellar is dark. ", 13), i)
				if err := ask(client, base, system, user); err != nil {
					failed <- err
					return
				}
			}
		})
	}
	for i := range *n {
		select {
		case jobs <- i:
		case err := <-failed:
			fmt.Fprintln(os.Stderr, "bareclient:", err)
			os.Exit(1)
		}
	}
	close(jobs)
	wg.Wait()
}

func ask(c *http.Client, base, system, user string) error {
	body, err := json.Marshal(map[string]any{"model": "gpt-standin", "messages": []map[string]string{
		{"role": "system", "content": system}, {"role": "user", "content": user}}})
	if err != nil {
		return err
	}
	req, err := http.NewRequest(http.MethodPost, base+"/chat/completions", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+os.Getenv("OPENAI_API_KEY"))
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("HTTP %d: %s", resp.StatusCode, b)
	}
	var out struct {
		Choices []struct {
			Message struct {
				Content string `json:"content"`
			} `json:"message"`
		} `json:"choices"`
	}
	return json.Unmarshal(b, &out)
}
