import { describe, expect, test } from "vitest";
import { VirtualClock } from "../../../emulator/clock";

describe("VirtualClock", () => {
  test("advance fires due timers in time order and leaves later ones", () => {
    const clock = new VirtualClock(0);
    clock.setSpeed(0);
    const fired: string[] = [];
    clock.schedule(300, () => fired.push("c"));
    clock.schedule(100, () => fired.push("a"));
    clock.schedule(100, () => fired.push("b"));
    clock.advance(200);
    expect(fired).toEqual(["a", "b"]);
    clock.advance(100);
    expect(fired).toEqual(["a", "b", "c"]);
    clock.dispose();
  });

  test("a cancelled timer never fires", () => {
    const clock = new VirtualClock(0);
    clock.setSpeed(0);
    let fired = false;
    const cancel = clock.schedule(10, () => {
      fired = true;
    });
    cancel();
    clock.advance(20);
    expect(fired).toBe(false);
    clock.dispose();
  });

  test("a frozen clock does not move by itself; speed multiplies real time", async () => {
    const clock = new VirtualClock(1000);
    clock.setSpeed(0);
    const frozen = clock.now();
    await new Promise((r) => setTimeout(r, 20));
    expect(clock.now()).toBe(frozen);
    clock.setSpeed(100);
    await new Promise((r) => setTimeout(r, 20));
    expect(clock.now() - frozen).toBeGreaterThanOrEqual(1000);
    clock.dispose();
  });

  test("timers fire in real time at the clock's speed", async () => {
    const clock = new VirtualClock();
    clock.setSpeed(1000);
    const fired = new Promise<void>((resolve) => clock.schedule(10_000, resolve));
    await expect(
      Promise.race([fired.then(() => "fired"), new Promise((r) => setTimeout(() => r("late"), 1000))]),
    ).resolves.toBe("fired");
    clock.dispose();
  });

  test("advance refuses negative time", () => {
    expect(() => new VirtualClock().advance(-1)).toThrow(RangeError);
  });
});
