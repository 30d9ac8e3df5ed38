import { ImageUp, Trash2, ZoomIn } from "lucide-react";
import { useEffect, useId, useRef, useState, type DragEvent, type KeyboardEvent, type PointerEvent } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { buttonVariants } from "@/components/ui/button-variants";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { MemberAvatar } from "@/components/ui/member-avatar";
import { updateAvatarUrl, useInvalidateProfile, useProfile } from "@/entities/profile";
import { useAuth } from "@/lib/auth";
import { describeServerError, toastServerError } from "@/lib/server-error";
import { cn } from "@/lib/utils";
import {
  AVATAR_MAX_ZOOM,
  AVATAR_SIZE,
  AVATAR_TYPES,
  avatarFileProblem,
  clampCenter,
  cropRect,
  drawCrop,
  loadImage,
  renderAvatar,
  type CropCenter,
} from "./avatar-image";

/** The crop preview's size on screen, in CSS pixels. */
const PREVIEW_PX = 208;

interface Source {
  img: HTMLImageElement;
  width: number;
  height: number;
  name: string;
}

const saveAvatar = updateAvatarUrl;

/**
 * The profile photo: pick or drop a PNG, JPEG or WebP image, move and zoom
 * it inside the square, and save it as a 256×256 picture (WebP, or JPEG
 * where the browser cannot encode WebP) within the server's limit; or
 * remove the photo, leaving the initials.
 */
export function AvatarEditor() {
  const { user } = useAuth();
  const profile = useProfile();
  const invalidateProfile = useInvalidateProfile();
  const inputId = useId();
  const hintId = useId();
  const zoomId = useId();
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const drag = useRef<{ x: number; y: number; center: CropCenter } | null>(null);
  const [source, setSource] = useState<Source | null>(null);
  const [zoom, setZoom] = useState(1);
  const [center, setCenter] = useState<CropCenter>({ x: 0.5, y: 0.5 });
  const [problem, setProblem] = useState<string | null>(null);
  const [dragOver, setDragOver] = useState(false);
  const [busy, setBusy] = useState<"save" | "remove" | "load" | null>(null);

  const current = profile.data?.avatar_url ?? "";
  const email = user?.email ?? "";

  useEffect(() => {
    if (!source || !canvasRef.current) return;
    drawCrop(canvasRef.current, source.img, cropRect(source.width, source.height, zoom, center), AVATAR_SIZE);
  }, [source, zoom, center]);

  async function choose(file: File | undefined) {
    if (!file) return;
    const why = avatarFileProblem(file);
    if (why) {
      setProblem(why);
      return;
    }
    setBusy("load");
    try {
      const img = await loadImage(file);
      setSource({ img, width: img.naturalWidth, height: img.naturalHeight, name: file.name });
      setZoom(1);
      setCenter({ x: 0.5, y: 0.5 });
      setProblem(null);
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(null);
      if (inputRef.current) inputRef.current.value = "";
    }
  }

  function move(next: CropCenter) {
    if (!source) return;
    setCenter(clampCenter(source.width, source.height, zoom, next));
  }

  function onPointerDown(event: PointerEvent<HTMLCanvasElement>) {
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { x: event.clientX, y: event.clientY, center };
  }

  function onPointerMove(event: PointerEvent<HTMLCanvasElement>) {
    if (!drag.current || !source) return;
    // One CSS pixel of the preview shows size/PREVIEW_PX pixels of the image.
    const { size } = cropRect(source.width, source.height, zoom, drag.current.center);
    const scale = size / PREVIEW_PX;
    move({
      x: drag.current.center.x - ((event.clientX - drag.current.x) * scale) / source.width,
      y: drag.current.center.y - ((event.clientY - drag.current.y) * scale) / source.height,
    });
  }

  function onPointerUp() {
    drag.current = null;
  }

  function onKeyDown(event: KeyboardEvent<HTMLCanvasElement>) {
    if (!source) return;
    const { size } = cropRect(source.width, source.height, zoom, center);
    const stepX = (size * 0.05) / source.width;
    const stepY = (size * 0.05) / source.height;
    const moves: Record<string, CropCenter> = {
      ArrowLeft: { x: center.x - stepX, y: center.y },
      ArrowRight: { x: center.x + stepX, y: center.y },
      ArrowUp: { x: center.x, y: center.y - stepY },
      ArrowDown: { x: center.x, y: center.y + stepY },
    };
    const next = moves[event.key];
    if (next) {
      event.preventDefault();
      move(next);
    } else if (event.key === "+" || event.key === "=") {
      event.preventDefault();
      setZoom((z) => Math.min(AVATAR_MAX_ZOOM, z + 0.25));
    } else if (event.key === "-") {
      event.preventDefault();
      setZoom((z) => Math.max(1, z - 0.25));
    }
  }

  function onDrop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    setDragOver(false);
    void choose(event.dataTransfer.files[0]);
  }

  async function save() {
    if (!source || !user) return;
    setBusy("save");
    try {
      const url = renderAvatar(source.img, cropRect(source.width, source.height, zoom, center));
      await saveAvatar(user.id, url);
      await invalidateProfile();
      setSource(null);
      toast.success("Photo saved", { description: "Your new photo shows across Fairbalance." });
    } catch (error) {
      const p = describeServerError(error, "The photo could not be saved.");
      setProblem(p.message);
      toastServerError("Photo not saved", p);
    } finally {
      setBusy(null);
    }
  }

  async function remove() {
    if (!user) return;
    setBusy("remove");
    try {
      await saveAvatar(user.id, "");
      await invalidateProfile();
      setProblem(null);
      toast.success("Photo removed", { description: "Your initials show in its place." });
    } catch (error) {
      toastServerError("Photo not removed", describeServerError(error, "The photo could not be removed."));
    } finally {
      setBusy(null);
    }
  }

  const fileInput = (
    <input
      ref={inputRef}
      id={inputId}
      type="file"
      accept={AVATAR_TYPES.join(",")}
      className="peer sr-only"
      aria-describedby={hintId}
      disabled={busy !== null}
      onChange={(event) => {
        void choose(event.target.files?.[0]);
      }}
    />
  );
  const chooseLabel = (text: string, variant: "default" | "outline") => (
    <label
      htmlFor={inputId}
      className={cn(
        buttonVariants({ variant, size: "sm" }),
        "cursor-pointer peer-focus-visible:ring-2 peer-focus-visible:ring-ring peer-focus-visible:ring-offset-2 peer-focus-visible:ring-offset-background",
        busy !== null && "pointer-events-none opacity-60",
      )}
    >
      <ImageUp aria-hidden="true" />
      {text}
    </label>
  );

  return (
    <Card>
      <CardHeader>
        <CardTitle>Photo</CardTitle>
        <CardDescription>Shown beside your name on reviews, comments and in the member list.</CardDescription>
      </CardHeader>
      <CardContent>
        <div
          onDragOver={(event) => {
            event.preventDefault();
            setDragOver(true);
          }}
          onDragLeave={() => {
            setDragOver(false);
          }}
          onDrop={onDrop}
          data-testid="avatar-dropzone"
          className={cn(
            "flex flex-col items-center gap-5 rounded-xl border border-dashed p-5 transition-colors sm:flex-row sm:items-start",
            dragOver ? "border-primary bg-primary/5" : "border-border",
          )}
        >
          {source ? (
            <div className="flex flex-col items-center gap-3">
              <canvas
                ref={canvasRef}
                width={AVATAR_SIZE}
                height={AVATAR_SIZE}
                tabIndex={0}
                role="img"
                aria-label="Crop preview. Drag, or use the arrow keys, to move the picture; plus and minus zoom."
                data-testid="avatar-crop"
                onPointerDown={onPointerDown}
                onPointerMove={onPointerMove}
                onPointerUp={onPointerUp}
                onPointerCancel={onPointerUp}
                onKeyDown={onKeyDown}
                style={{ width: PREVIEW_PX, height: PREVIEW_PX }}
                className="cursor-grab touch-none rounded-full bg-muted shadow-inner ring-1 ring-border active:cursor-grabbing"
              />
              <div className="flex w-full items-center gap-2">
                <ZoomIn aria-hidden="true" className="size-4 text-muted-foreground" />
                <label htmlFor={zoomId} className="sr-only">
                  Zoom
                </label>
                <input
                  id={zoomId}
                  type="range"
                  min={1}
                  max={AVATAR_MAX_ZOOM}
                  step={0.05}
                  value={zoom}
                  onChange={(event) => {
                    const z = Number(event.target.value);
                    setZoom(z);
                    setCenter((c) => clampCenter(source.width, source.height, z, c));
                  }}
                  className="w-full accent-[var(--primary)]"
                />
              </div>
            </div>
          ) : (
            <MemberAvatar
              name={profile.data?.full_name}
              email={email}
              src={current}
              className="size-24"
              fallbackClassName="text-3xl"
            />
          )}
          <div className="grid flex-1 gap-3 text-center sm:text-left">
            {source ? (
              <p className="text-sm leading-6">
                Drag the picture to frame it and zoom with the slider. The circle shows how your photo will look.
              </p>
            ) : (
              <p className="text-sm leading-6">
                <span className="font-medium">Drop an image here</span> or choose one from your device.
              </p>
            )}
            <p id={hintId} className="text-xs leading-5 text-muted-foreground">
              PNG, JPEG or WebP, up to 10 MB. It is cropped to a square and resized in your browser before it is saved.
            </p>
            {problem ? (
              <p role="alert" className="text-sm font-medium text-destructive">
                {problem}
              </p>
            ) : null}
            <div className="flex flex-wrap justify-center gap-2 sm:justify-start">
              {fileInput}
              {source ? (
                <>
                  <Button size="sm" onClick={() => void save()} disabled={busy !== null}>
                    {busy === "save" ? "Saving…" : "Save photo"}
                  </Button>
                  {chooseLabel("Choose another", "outline")}
                  <Button
                    size="sm"
                    variant="ghost"
                    disabled={busy !== null}
                    onClick={() => {
                      setSource(null);
                      setProblem(null);
                    }}
                  >
                    Cancel
                  </Button>
                </>
              ) : (
                <>
                  {chooseLabel(current ? "Change photo" : "Upload photo", "outline")}
                  {current ? (
                    <Button size="sm" variant="ghost" disabled={busy !== null} onClick={() => void remove()}>
                      <Trash2 aria-hidden="true" />
                      {busy === "remove" ? "Removing…" : "Remove photo"}
                    </Button>
                  ) : null}
                </>
              )}
            </div>
          </div>
        </div>
      </CardContent>
    </Card>
  );
}
