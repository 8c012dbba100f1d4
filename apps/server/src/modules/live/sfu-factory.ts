import type { AppConfig } from '../../config/config';
import { systemClock } from '../../platform/clock/clock';
import { ExternalWhipWhepDriver } from '../../platform/rtc/external-whip-whep-driver';
import type { SfuDriver } from '../../platform/rtc/sfu-driver';
import { WeriftSfu } from '../../platform/rtc/werift-sfu';

/**
 * The SFU driver the configuration names: an external WHIP/WHEP server when its URLs are set, else
 * the embedded werift SFU. The embedded SFU's dead-peer timeouts run on the system clock: they
 * watch the network, which a test's moved clock must not starve.
 */
export function createSfu(config: AppConfig['live']): SfuDriver {
  if (config.external)
    return new ExternalWhipWhepDriver({
      whipUrl: config.external.whipUrl,
      whepUrl: config.external.whepUrl,
      ...(config.external.token ? { bearerToken: config.external.token } : {}),
    });
  return new WeriftSfu({
    clock: systemClock,
    iceServers: config.iceServers.map((urls) => ({ urls })),
    ...(config.icePortRange ? { icePortRange: config.icePortRange } : {}),
    iceAdditionalHostAddresses: config.iceAdditionalHostAddresses,
  });
}
