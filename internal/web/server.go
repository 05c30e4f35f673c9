// Package web is arbiter's web UI: an HTTP server over a results store that lists the
// runs, shows a run's report tables and figures, pages through its recorded replies,
// browses the bundled CoC-Seduce reference set, and hosts the LLM Court game with its
// game API (court.go, court_sse.go).
//
// Handlers are methods on *Server and stay thin: each reads its parameters, calls a small
// data function that takes the store, and renders an html/template page. Every string a
// model or a dataset wrote reaches the page through html/template, which escapes it; the
// only HTML the pages embed as such is report.Table's, which html/template built too.
// Every answer carries a Content-Security-Policy that allows scripts and styles only
// from the server's own files, as a second line. Every request first passes the guard
// (guard.go): Host, Origin and Content-Type checks, body limit, security headers.
// Templates and the stylesheet are embedded, so the binary serves the UI on its own.
package web

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/arbiter-eval/arbiter/internal/court"
	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/seduce"
	"github.com/arbiter-eval/arbiter/internal/store"
)

//go:embed templates/*.html
var templateFiles embed.FS

//go:embed static
var staticFiles embed.FS

// Options configure a Server.
type Options struct {
	// Store holds the runs the UI shows. Required.
	Store *store.Store
	// Dataset is the set /dataset browses; nil is the bundled reference set.
	Dataset *seduce.Dataset
	// Log receives one line per failed request; nil discards.
	Log *slog.Logger
	// Public answers to any Host header, for a server on a network address; an
	// Origin must still match the Host. Off, only the listening address and its
	// loopback aliases are answered (see guard.go).
	Public bool

	// Court plays the LLM Court game (court.go); nil: the game pages say it needs a
	// model and how to give it one.
	Court *court.Games
	// CourtModels are the models of each role of a new game unless it names its own.
	CourtModels court.Models
	// CourtModelNames are every model the court has open (court.Session).
	CourtModelNames []string
	// CourtOffers are the models a player may pick for each role ("judge",
	// "prosecutor", "witness", "analyzer"); a role without offers takes its model in
	// CourtModels alone. The judge's offers are also those of case generation and the
	// checklist judge.
	CourtOffers map[string][]llm.ModelName
	// Limits bound what clients may spend (access.go).
	Limits Limits
	// OwnerToken, on a public server, is what saving a case wants (serve prints it).
	OwnerToken string
	// CourtReachable, when set, says whether the court's models answer; the menu shows
	// how to point the game at a model when they do not.
	CourtReachable func(ctx context.Context) error
	// OllamaURL is the base URL of a local Ollama (OLLAMA_HOST, as config reads it):
	// with no court model the menu offers the models it lists (GET /api/court/ollama).
	// "" or an address that is not loopback: the server never asks.
	OllamaURL string
	// GenerateCase drafts a case from a prior; nil: case generation answers 501.
	GenerateCase GenerateCaseFunc
	// Judge scores a game's transcript; nil: check.Judge with the bundled checklist
	// through Court.Session.
	Judge JudgeFunc

	// Keeper rules in the Keeper game (keeper.go); nil: its page says it needs a model.
	Keeper *seduce.Keeper
	// KeeperModels are the Keeper models a player may choose, the first the default.
	KeeperModels []llm.ModelName
	// KeeperDataset holds the game's scenarios (those that require a roll); nil: Dataset.
	KeeperDataset *seduce.Dataset
}

// Server serves the web UI. Create it with New, start it with Serve and stop it with
// Shutdown.
type Server struct {
	st      *store.Store
	dataset *seduce.Dataset
	log     *slog.Logger
	pages   map[string]*template.Template
	http    *http.Server
	reports *reportCache
	public  bool
	court   *courtState
	keeper  *keeperState
	reviews reviewCache
	// rescore scores a stored seduce run (seduce.Rescore; tests count the calls).
	rescore func(ctx context.Context, st *store.Store, run *store.Run) (*seduce.Results, error)
}

// New builds a Server over opt.Store.
func New(opt Options) (*Server, error) {
	if opt.Store == nil {
		return nil, errors.New("web: no store")
	}
	s := &Server{st: opt.Store, rescore: rescoreSeduce, dataset: opt.Dataset, log: opt.Log, reports: newReportCache(8)}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.dataset == nil {
		ds, err := seduce.Builtin(nil)
		if err != nil {
			return nil, fmt.Errorf("web: load the reference set: %w", err)
		}
		s.dataset = ds
	}
	pages, err := parsePages()
	if err != nil {
		return nil, err
	}
	s.pages = pages
	s.public = opt.Public
	s.court = newCourtState(opt, s.log)
	s.keeper = newKeeperState(opt, s.dataset, s.court.guard)
	s.http = s.httpServer()
	return s, nil
}

// Handler returns the UI's routes behind the guard (guard.go). Every route is registered
// on this one mux, which the guard wraps once: a new route, such as the court's game API
// under /api/court, is one more line here and gets the Host, Origin, Content-Type and
// body-size checks and the security headers without doing anything.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", s.healthz)
	mux.HandleFunc("GET /{$}", s.index)
	mux.HandleFunc("GET /runs/{id}", s.run)
	mux.HandleFunc("GET /runs/{id}/figures/{file}", s.figure)
	mux.HandleFunc("GET /runs/{id}/replies", s.replies)
	mux.HandleFunc("GET /runs/{id}/replies/unparsed.jsonl", s.repliesUnparsed)
	mux.HandleFunc("GET /dataset", s.datasetPage)
	mux.HandleFunc("GET /dataset/style", s.stylePage)
	mux.HandleFunc("GET "+styleFigures+"/{file}", s.styleFigure)
	mux.HandleFunc("GET /court", s.courtMenu)
	mux.HandleFunc("GET /court/games/{id}", s.courtGamePage)
	mux.HandleFunc("GET /api/court/cases", s.apiCases)
	mux.HandleFunc("POST /api/court/cases", s.apiSaveCase)
	mux.HandleFunc("POST /api/court/cases/generate", s.apiGenerateCase)
	mux.HandleFunc("GET /api/court/models", s.apiModels)
	mux.HandleFunc("GET /api/court/ollama", s.apiOllama)
	mux.HandleFunc("GET /api/court/games", s.apiListGames)
	mux.HandleFunc("POST /api/court/games", s.apiNewGame)
	mux.HandleFunc("GET /api/court/games/{id}", s.withGame(store.GameWatch, s.apiGame))
	mux.HandleFunc("GET /api/court/games/{id}/events", s.withGame(store.GameWatch, s.apiEvents))
	mux.HandleFunc("GET /api/court/games/{id}/transcript", s.withGame(store.GameWatch, s.apiTranscript))
	mux.HandleFunc("POST /api/court/games/{id}/defense", s.withGame(store.GamePlay, s.apiDefense))
	mux.HandleFunc("POST /api/court/games/{id}/rest", s.withGame(store.GamePlay, s.apiRest))
	mux.HandleFunc("POST /api/court/games/{id}/prosecution", s.withGame(store.GamePlay, s.apiProsecution))
	mux.HandleFunc("POST /api/court/watch", s.apiWatch)
	mux.HandleFunc("GET /api/court/replays", s.apiReplays)
	mux.HandleFunc("GET /api/court/replays/{trial}", s.apiReplay)
	mux.HandleFunc("GET /api/court/replays/{trial}/info", s.apiReplayInfo)
	mux.HandleFunc("GET /court/replays/{trial}", s.courtReplayPage)
	for _, control := range []string{"pause", "resume", "skip", "speed"} {
		mux.HandleFunc("POST /api/court/games/{id}/"+control, s.withGame(store.GamePlay, s.apiPace(control)))
	}
	mux.HandleFunc("POST /api/court/games/{id}/restart", s.withGame(store.GamePlay, s.apiRestart))
	mux.HandleFunc("POST /api/court/games/{id}/judge", s.withGame(store.GamePlay, s.apiJudge))
	mux.HandleFunc("GET /keeper", s.keeperPage)
	mux.HandleFunc("GET /api/keeper/state", s.apiKeeperState)
	mux.HandleFunc("GET /api/keeper/board", s.apiKeeperBoard)
	mux.HandleFunc("POST /api/keeper/player", s.apiKeeperPlayer)
	mux.HandleFunc("POST /api/keeper/rounds", s.apiKeeperNewRound)
	mux.HandleFunc("GET /api/keeper/rounds/{id}", s.apiKeeperRound)
	mux.HandleFunc("POST /api/keeper/rounds/{id}/attempts", s.apiKeeperAttempt)
	mux.HandleFunc("GET /review", s.reviewList)
	mux.HandleFunc("GET /review/{id}/as/{reviewer}", s.reviewPage)
	mux.HandleFunc("GET /review/{id}/agreement", s.reviewAgreement)
	mux.HandleFunc("GET /review/{id}/export", s.reviewExport)
	mux.HandleFunc("GET /api/review/{id}/queue", s.apiReviewQueue)
	mux.HandleFunc("POST /api/review/{id}/decide", s.apiReviewDecide)
	mux.HandleFunc("POST /api/review/{id}/undo", s.apiReviewUndo)
	mux.HandleFunc("POST /api/review/{id}/adjudicate", s.apiReviewAdjudicate)
	mux.HandleFunc("GET /static/", s.static)
	mux.HandleFunc("GET /", s.notFound)
	return s.guard(mux)
}

// Serve answers requests on ln until Shutdown; it then returns nil.
func (s *Server) Serve(ln net.Listener) error {
	if err := s.http.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// Shutdown stops accepting connections and waits, until ctx is done, for the requests
// in flight to finish. The courts of the games in play stop first, mid-turn if need be
// (a turn not finished is asked again when the game is next loaded), and so do the
// event streams, which would otherwise never finish.
func (s *Server) Shutdown(ctx context.Context) error {
	s.court.stop()
	return s.http.Shutdown(ctx)
}

// static serves the embedded stylesheet and any other file under /static/; a folder,
// listed by http.FileServer, is not found instead.
func (s *Server) static(w http.ResponseWriter, r *http.Request) {
	dir, _ := fs.Sub(staticFiles, "static") // cannot fail: the folder is embedded
	name := strings.TrimPrefix(r.URL.Path, "/static/")
	if fi, err := fs.Stat(dir, name); err != nil || fi.IsDir() {
		s.notFound(w, r)
		return
	}
	http.ServeFileFS(w, r, dir, name)
}

func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Write([]byte("ok"))
}

// parsePages parses every page template together with the layout it fills.
func parsePages() (map[string]*template.Template, error) {
	funcs := template.FuncMap{
		"runURL": func(id store.RunID) string { return "/runs/" + url.PathEscape(string(id)) },
		"tokens": func(st store.Stats) int64 { return st.InputTokens + st.OutputTokens },
		"when": func(t time.Time) string {
			if t.IsZero() {
				return "—"
			}
			return t.Local().Format("2006-01-02 15:04")
		},
	}
	names, err := fs.Glob(templateFiles, "templates/*.html")
	if err != nil {
		return nil, err
	}
	pages := map[string]*template.Template{}
	for _, name := range names {
		if name == "templates/layout.html" {
			continue
		}
		t, err := template.New("layout.html").Funcs(funcs).ParseFS(templateFiles, "templates/layout.html", name)
		if err != nil {
			return nil, fmt.Errorf("web: parse %s: %w", name, err)
		}
		pages[name[len("templates/"):]] = t
	}
	return pages, nil
}

// render executes page with data and sends it with status. The page is built in memory
// first, so a template error becomes a clean 500 instead of half a page.
func (s *Server) render(w http.ResponseWriter, r *http.Request, status int, page string, data any) {
	var buf bytes.Buffer
	if err := s.pages[page].Execute(&buf, data); err != nil {
		s.log.Error("render page", "page", page, "path", r.URL.Path, "err", err)
		http.Error(w, "internal error: the page could not be rendered", http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", pageCSP)
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

// errorView is the error page.
type errorView struct {
	Title   string
	Status  int
	Message string
}

// fail renders the error page with status; a server error is logged and its detail
// kept from the page.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, status int, msg string, err error) {
	if status >= 500 {
		s.log.Error("request failed", "path", r.URL.Path, "err", err)
		msg = "Something went wrong reading the store; the server log has the details."
	}
	s.render(w, r, status, "error.html", errorView{Title: http.StatusText(status), Status: status, Message: msg})
}

func (s *Server) notFound(w http.ResponseWriter, r *http.Request) {
	s.fail(w, r, http.StatusNotFound, "There is no page at "+r.URL.Path+".", nil)
}

// reportCache keeps the last few rendered run reports: a run page and its figures are
// separate requests, and a seduce report's bootstrap is worth doing once.
type reportCache struct {
	mu    sync.Mutex
	max   int
	order []reportKey
	m     map[reportKey]*runReport
}

// reportKey names a run as it stood: more results or a new status make a new report.
type reportKey struct {
	id       store.RunID
	status   string
	ended    time.Time
	jobs     int
	answered int
}

func newReportCache(n int) *reportCache {
	return &reportCache{max: n, m: map[reportKey]*runReport{}}
}

func (c *reportCache) get(k reportKey) (*runReport, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	rep, ok := c.m[k]
	return rep, ok
}

func (c *reportCache) put(k reportKey, rep *runReport) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[k]; ok {
		return
	}
	if len(c.order) == c.max {
		delete(c.m, c.order[0])
		c.order = c.order[1:]
	}
	c.order = append(c.order, k)
	c.m[k] = rep
}
