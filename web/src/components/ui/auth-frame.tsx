import { Scale, type LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { cn } from "@/lib/utils";
import { Card, CardContent, CardDescription, CardHeader } from "./card";

/** The product mark: the Scale icon in a tile beside the name "Fairbalance". */
export function ProductMark({ className }: { className?: string }) {
  return (
    <div className={cn("flex items-center gap-2.5", className)}>
      <span className="inline-flex size-9 items-center justify-center rounded-lg bg-primary text-primary-foreground shadow-sm">
        <Scale aria-hidden="true" className="size-5" />
      </span>
      <span className="text-xl font-semibold tracking-tight">Fairbalance</span>
    </div>
  );
}

const WIDTHS = { sm: "max-w-md", md: "max-w-xl", lg: "max-w-4xl" } as const;

/**
 * The page frame of the screens outside the app shell (sign-in, sign-up,
 * password recovery, gate, safe mode): the product mark above content
 * centred on a quiet background, with an optional footer line below.
 */
export function AuthFrame({
  children,
  footer,
  width = "sm",
}: {
  children: ReactNode;
  footer?: ReactNode;
  width?: keyof typeof WIDTHS;
}) {
  return (
    <div className="relative isolate flex flex-1 flex-col items-center justify-center px-4 py-10 sm:px-6 sm:py-16">
      <div
        aria-hidden="true"
        className="pointer-events-none absolute inset-x-0 top-0 -z-10 h-72 bg-linear-to-b from-primary/8 to-transparent"
      />
      <div className={cn("flex w-full flex-col gap-6", WIDTHS[width])}>
        <ProductMark className="justify-center" />
        {children}
        {footer ? <div className="text-center text-sm leading-6 text-muted-foreground">{footer}</div> : null}
      </div>
    </div>
  );
}

/**
 * The card of a sign-in style screen: an optional icon, the screen's title
 * (its `<h1>` by default), a description, then the body.
 */
export function AuthCard({
  icon: Icon,
  iconTone = "primary",
  title,
  description,
  children,
  className,
  headingLevel: Heading = "h1",
}: {
  /** The title's element: "h2" when another card on the page holds the `<h1>`. */
  headingLevel?: "h1" | "h2";
  icon?: LucideIcon;
  iconTone?: "primary" | "success" | "warning" | "destructive";
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  className?: string;
}) {
  const tones = {
    primary: "bg-primary/10 text-primary",
    success: "bg-success/12 text-success",
    warning: "bg-warning/15 text-warning",
    destructive: "bg-destructive/10 text-destructive",
  } as const;
  return (
    <Card className={cn("shadow-md shadow-black/5", className)}>
      <CardHeader className="items-center gap-2 px-6 pt-8 pb-6 text-center sm:px-8">
        {Icon ? (
          <span className={cn("mb-1 inline-flex size-11 items-center justify-center rounded-full", tones[iconTone])}>
            <Icon aria-hidden="true" className="size-5" />
          </span>
        ) : null}
        <Heading className="text-2xl leading-8 font-semibold tracking-tight">{title}</Heading>
        {description ? <CardDescription className="max-w-sm wrap-anywhere">{description}</CardDescription> : null}
      </CardHeader>
      {children ? <CardContent className="px-6 pb-8 sm:px-8">{children}</CardContent> : null}
    </Card>
  );
}
