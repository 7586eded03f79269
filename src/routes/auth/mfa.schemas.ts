import { z } from "@hono/zod-openapi";
import { Timestamp } from "../../lib/openapi";

/** A 6-digit TOTP code or a recovery code (xxxx-xxxx-xxxx-xxxx). */
const Code = z.string().trim().min(6).max(32).openapi({ example: "123456" });

export const MfaCodeBody = z.strictObject({ code: Code }).openapi("MfaCode");

export const MfaActivateBody = z
  .strictObject({
    code: Code,
    password: z.string().min(1).max(256).openapi({ description: "The account's password: a stolen access token alone cannot turn MFA on" }),
  })
  .openapi("MfaActivate");

export const MfaVerifyBody = z
  .strictObject({
    mfaToken: z.string().min(1).max(128),
    code: Code,
  })
  .openapi("MfaVerify");

export const MfaEnrolmentSchema = z
  .object({
    secret: z.string().openapi({ description: "Base32 TOTP secret (160 bits), shown once" }),
    otpauthUri: z.string().openapi({ example: "otpauth://totp/wg-overlay.local:ada%40example.com?secret=...&issuer=..." }),
  })
  .openapi("MfaEnrolment");

export const RecoveryCodesSchema = z
  .object({
    recoveryCodes: z.array(z.string()).openapi({ description: "10 single-use codes, shown once" }),
  })
  .openapi("MfaRecoveryCodes");

export const MfaStatusSchema = z
  .object({
    enabled: z.boolean(),
    pending: z.boolean().openapi({ description: "Enrolled but not yet activated with a first code" }),
    activatedAt: Timestamp.nullable(),
    recoveryCodesRemaining: z.number().int(),
  })
  .openapi("MfaStatus");
