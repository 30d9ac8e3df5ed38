import { Download, Table2, BarChart3 } from "lucide-react";
import { type ReactNode, useId, useState } from "react";
import { Link } from "react-router";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { SeriesTable } from "@/entities/insights";
import { toCsv } from "@/lib/csv";
import { saveBlob } from "@/lib/download";
import { cn } from "@/lib/utils";

/**
 * A chart with its numbers: the chart, or (toggled) the same numbers as a
 * table, and a CSV download of them. The chart itself is hidden from
 * assistive technology, which reads the table instead (always in the
 * document, visually hidden while the chart shows).
 */
export function ChartCard({
  title,
  description,
  table,
  filename,
  empty,
  children,
  className,
  testId,
  links,
}: {
  title: string;
  description: string;
  table: SeriesTable;
  /** The CSV's file name, without extension. */
  filename: string;
  /** What to say instead of the chart when there is nothing to draw. */
  empty?: ReactNode;
  /** The chart; none for a list, whose table is all there is. */
  children?: ReactNode;
  className?: string;
  testId: string;
  /** Where each row's first cell links to. */
  links?: readonly string[];
}) {
  const [toggled, setShowTable] = useState(false);
  const list = children === undefined;
  const showTable = list || toggled;
  const titleId = useId();
  const download = () => {
    saveBlob(new Blob([toCsv(table.header, table.rows)], { type: "text/csv;charset=utf-8" }), `${filename}.csv`);
  };
  return (
    <Card className={cn("min-w-0", className)} data-testid={testId} aria-labelledby={titleId} role="region">
      <CardHeader className="flex flex-col items-stretch gap-2 sm:flex-row sm:items-start sm:justify-between">
        <div className="grid min-w-0 flex-1 gap-1">
          <CardTitle id={titleId} className="text-base">
            {title}
          </CardTitle>
          <CardDescription>{description}</CardDescription>
        </div>
        <div className="-ml-2 flex shrink-0 gap-1 sm:ml-0">
          {list ? null : (
          <Button
            type="button"
            variant="ghost"
            size="sm"
            aria-pressed={showTable}
            onClick={() => {
              setShowTable((v) => !v);
            }}
          >
            {showTable ? <BarChart3 aria-hidden="true" /> : <Table2 aria-hidden="true" />}
            {showTable ? "Chart" : "Table"}
          </Button>
          )}
          <Button type="button" variant="ghost" size="sm" onClick={download} aria-label={`Download ${title} as CSV`}>
            <Download aria-hidden="true" />
            CSV
          </Button>
        </div>
      </CardHeader>
      <CardContent className="min-w-0">
        {empty && (!showTable || list) ? <div className="py-6 text-center text-sm text-muted-foreground">{empty}</div> : null}
        {!empty && !showTable ? (
          <div aria-hidden="true" className="h-64 w-full min-w-0">
            {children}
          </div>
        ) : null}
        {/* The table scrolls on its own when it is shown (a region the keyboard reaches); hidden, it is read by assistive technology only. */}
        <div
          className={cn(showTable ? "max-w-full overflow-x-auto" : "sr-only", list && empty ? "sr-only" : "", list ? "max-h-80 overflow-y-auto" : "")}
          {...(showTable && !(list && empty) ? { tabIndex: 0, role: "region", "aria-label": `${title}: table` } : {})}
        >
          <table className="w-full caption-bottom text-sm">
            <caption className="sr-only">{title}</caption>
            <TableHeader>
              <TableRow>
                {table.header.map((h, i) => (
                  <TableHead key={h} className={i > 0 ? "text-right" : undefined}>
                    {h}
                  </TableHead>
                ))}
              </TableRow>
            </TableHeader>
            <TableBody>
              {table.rows.length === 0 ? (
                <TableRow>
                  <TableCell colSpan={table.header.length} className="text-muted-foreground">
                    No data in this period.
                  </TableCell>
                </TableRow>
              ) : (
                table.rows.map((row, r) => (
                  <TableRow key={`${String(r)}:${String(row[0])}`}>
                    {row.map((cell, i) => (
                      <TableCell key={table.header[i] ?? i} className={cn(i > 0 && typeof cell === "number" ? "text-right tabular-nums" : "", list && i === 0 ? "min-w-40 whitespace-normal" : list && typeof cell === "string" && cell.length > 40 ? "min-w-64 whitespace-normal" : "")}>
                        {i === 0 && links?.[r] ? (
                          <Link to={links[r]} className="font-medium underline-offset-2 hover:underline">
                            {cell}
                          </Link>
                        ) : (
                          (cell ?? "—")
                        )}
                      </TableCell>
                    ))}
                  </TableRow>
                ))
              )}
            </TableBody>
          </table>
        </div>
      </CardContent>
    </Card>
  );
}
