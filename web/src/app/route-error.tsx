import { CircleAlert } from "lucide-react";
import { isRouteErrorResponse, useRouteError } from "react-router";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";

/**
 * Shown when a screen throws while rendering or its code fails to load
 * (typically after an upgrade replaced the hashed files). Reloading fetches
 * the current version of the app.
 */
export function RouteError() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : undefined;

  return (
    <main className="flex min-h-dvh items-center justify-center p-4">
      <Card className="w-full max-w-md" role="alert">
        <CardHeader>
          <CircleAlert aria-hidden="true" className="size-6 text-destructive" />
          <CardTitle as="h1">Something went wrong</CardTitle>
          <CardDescription>
            This page could not be displayed. Reloading usually fixes it.
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col items-start gap-4">
          {detail && (
            <p className="w-full rounded-md bg-muted px-3 py-2 font-mono text-xs break-words text-muted-foreground">
              {detail}
            </p>
          )}
          <Button
            onClick={() => {
              window.location.reload();
            }}
          >
            Reload
          </Button>
        </CardContent>
      </Card>
    </main>
  );
}
