import { startAssetEarlyLoads } from "@/features/asset/early";
import { freshStoredSession, profileLoad, startEarly } from "@/lib/early";
import { cn } from "@/lib/utils";

// The page's first script, small and separate from the app's code so it runs
// as soon as it arrives: for a visitor with a fresh stored session it starts
// the requests the first screen will wait for — the member's profile (the
// shell needs it) and, on an asset's address, the asset, its versions and
// its PDF — while the app's code is still loading.
const session = freshStoredSession();
const userId = session?.user?.id;
if (userId) {
  void startEarly(profileLoad.key(userId), profileLoad.path(userId));
  startAssetEarlyLoads(window.location.pathname, window.location.search);
  // The class merger builds its tables on first use (tens of milliseconds on
  // a slow machine); here that happens while the app's code is still arriving
  // instead of inside the first render.
  cn("p-1", "p-2");
}
