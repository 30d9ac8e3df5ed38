# Fairbalance — one binary: the Go server with the web app embedded.
#   make run    build and start a complete instance (SQLite and files under ./data)
#   make test   run every test (Go on SQLite and PostgreSQL, web unit tests, supabase-js conformance)

VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
GO      ?= go
LDFLAGS := -s -w -X main.version=$(VERSION)
BIN     := bin/fairbalance

.DEFAULT_GOAL := help

.PHONY: help
help: ## list the targets
	@awk 'BEGIN {FS = ":.*## "} /^[a-z-]+:.*## / {printf "  %-10s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

web/node_modules/.package-lock.json: web/package-lock.json
	cd web && npm ci --no-audit --no-fund
	@touch $@

.PHONY: web
web: web/node_modules/.package-lock.json ## build the web app into web/dist
	cd web && npm run build

.PHONY: build
build: web ## build bin/fairbalance with the web app embedded
	$(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/fairbalance

.PHONY: build-noui
build-noui: ## build bin/fairbalance without the web app (no Node needed)
	$(GO) build -tags noui -trimpath -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/fairbalance

.PHONY: run
run: build ## build and start a complete instance on http://127.0.0.1:8080
	./$(BIN) serve

.PHONY: test
test: ## run every test (starts a throwaway PostgreSQL when TEST_DATABASE_URL is unset)
	./scripts/test.sh

.PHONY: lint
lint: web/node_modules/.package-lock.json ## gofmt, go vet, and the web linter and type check
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet -tags noui $$($(GO) list ./... | grep -v /node_modules/)
	cd web && npm run lint && npm run typecheck

.PHONY: generate
generate: ## regenerate generated code (the web app's Database type and list of audit actions)
	$(GO) run -tags noui ./cmd/fairbalance gen types --out web/src/lib/database.types.ts
	$(GO) run -tags noui ./cmd/fairbalance gen audit-actions --out web/src/entities/audit/server-actions.ts

.PHONY: bench
bench: build ## run the HTTP benchmarks (wrk) against a fresh instance; see bench/README.md
	./bench/run.sh

.PHONY: lighthouse
lighthouse: build ## Lighthouse scores of /login and / (desktop) in Chromium
	./bench/lighthouse.sh

.PHONY: clean
clean: ## remove build outputs
	rm -rf bin web/dist
