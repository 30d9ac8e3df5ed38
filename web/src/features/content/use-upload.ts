import { useCallback, useRef, useState } from "react";
import { formatBytes, UPLOAD_MAX_BYTES, UPLOAD_TYPES } from "@/lib/content-types";
import { isAbortError, uploadWithProgress } from "@/lib/upload";
import { prepareUpload, type PreparedUpload, type UploadBucket } from "@/entities/content";

export interface UploadState {
  /** Bytes sent so far and in all. */
  loaded: number;
  total: number;
  uploading: boolean;
}

/**
 * The reason a file cannot be uploaded (type outside PDF/PNG/JPEG/WebP,
 * empty, or over 500 MB), or null. The server re-checks both from the bytes.
 */
export function fileProblem(file: File, types: Readonly<Record<string, string>> = UPLOAD_TYPES): string | null {
  if (!(file.type in types)) {
    const allowed = Object.values(types).join(", ");
    return `“${file.name}” is not a file type Fairbalance accepts here. Choose a ${allowed} file.`;
  }
  if (file.size === 0) return `“${file.name}” is empty.`;
  if (file.size > UPLOAD_MAX_BYTES) {
    return `“${file.name}” is ${formatBytes(file.size)}; files can be at most ${formatBytes(UPLOAD_MAX_BYTES)}.`;
  }
  return null;
}

/**
 * Uploads a file to a product bucket: asks the server for a signed upload
 * URL (rpc prepare_upload), then streams the bytes with progress. `upload`
 * resolves with the prepared path, or null when the person cancelled.
 */
export function useUpload(bucket: UploadBucket) {
  const [state, setState] = useState<UploadState>({ loaded: 0, total: 0, uploading: false });
  const controller = useRef<AbortController | null>(null);

  const upload = useCallback(
    async (file: File): Promise<PreparedUpload | null> => {
      const abort = new AbortController();
      controller.current = abort;
      setState({ loaded: 0, total: file.size, uploading: true });
      try {
        const prepared = await prepareUpload(bucket, file);
        await uploadWithProgress(
          prepared.signed_url,
          file,
          (loaded, total) => {
            setState({ loaded, total, uploading: true });
          },
          abort.signal,
        );
        return prepared;
      } catch (error) {
        if (isAbortError(error)) return null;
        throw error;
      } finally {
        controller.current = null;
        setState((s) => ({ ...s, uploading: false }));
      }
    },
    [bucket],
  );

  const cancel = useCallback(() => {
    controller.current?.abort();
  }, []);

  return { state, upload, cancel };
}

