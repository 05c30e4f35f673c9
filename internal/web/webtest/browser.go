// Package webtest starts the browser that the web UI's tests drive: Debian's chromium,
// headless, with nothing that reaches the network.
package webtest

import (
	"context"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// Chromium is Debian's browser, which scripts/test installs.
const Chromium = "/usr/bin/chromium"

// Browser starts chromium for the test and returns a tab that closes with the test, or
// at the latest after timeout. Without chromium the test fails under CI and is skipped
// elsewhere.
func Browser(t testing.TB, timeout time.Duration) context.Context {
	t.Helper()
	if _, err := os.Stat(Chromium); err != nil {
		msg := "browser tests need Debian's chromium at " + Chromium + " (scripts/test installs it; or: apt-get install chromium)"
		if _, ci := os.LookupEnv("CI"); ci {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(Chromium),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 900),
		// The machine's network is closed: every background connection would be refused.
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-default-apps", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("metrics-recording-only", true),
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	t.Cleanup(cancel)
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	t.Cleanup(acancel)
	bctx, bcancel := chromedp.NewContext(actx)
	t.Cleanup(bcancel)
	return bctx
}

// Dialogs records and dismisses every JavaScript dialog the tab opens, so none can hang
// a test. The returned function lists the dialogs' messages so far; seen, when not nil,
// hears of each one (it should be buffered).
func Dialogs(ctx context.Context, seen chan<- struct{}) func() []string {
	var mu sync.Mutex
	var dialogs []string
	events := chromedp.Events(ctx, page.JavascriptDialogOpening)
	go func() {
		for ev, err := range events {
			if err != nil {
				return
			}
			mu.Lock()
			dialogs = append(dialogs, ev.Message)
			mu.Unlock()
			chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: false})
			if seen != nil {
				seen <- struct{}{}
			}
		}
	}()
	return func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(dialogs)
	}
}
