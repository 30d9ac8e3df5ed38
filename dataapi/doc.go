// Package dataapi is the data-API engine behind /rest/v1: a registry of
// tables and functions, never the raw database. Each table declares its
// columns and types, who may read and write each column, its row policy and
// its one-level relations; each function its arguments and its work in one
// transaction. The engine turns a parsed request (package pgrest) into a
// plan the store runs, writes the audit entry of every change in the
// change's transaction, streams CSV, and describes the registry as OpenAPI
// and as the TypeScript Database type of supabase-js.
//
// The product's tables and functions are declared in package service, which
// builds the one registry that the server, `fairbalance gen types` and the
// tests use. Every refusal is a *fairbalance.Error with PostgREST's or
// PostgreSQL's code; the HTTP layer gives it its status and body. The
// package knows no HTTP.
package dataapi
